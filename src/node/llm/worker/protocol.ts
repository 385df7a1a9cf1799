/**
 * The messages between the extension host and the pi-ai worker (`piAiWorkerMain.ts`). Plain data
 * only: they are copied across threads by structured clone, so errors travel as their kind and
 * message and are rebuilt on the other side.
 */
import type { SummarizeInput, SummarizeResult, SummarizerFailureKind } from '../../../engine/ports';
import type { SummarizerSpec } from '../defaultSummarizer';
import type { PiAiOrigin } from '../library/modelLibrary';
import type { ModelFacts } from '../modelPricing';
import type { ModelChoice, ModelRef } from '../models';
import type { SummarizerPlan } from '../summarizerPlan';
import type { InstalledPiAiPolicy } from '../piAiLoader';

/** What every question says about which pi-ai may answer it (the host's workspace trust, at asking time). */
interface Asked {
	readonly id: number;
	readonly policy: InstalledPiAiPolicy;
}

/** Questions carry an id; their answer (or failure) and progress carry it back. */
export type Question =
	| Asked & { readonly type: 'facts'; readonly agentDir: string; readonly provider: string; readonly modelId: string }
	| Asked & { readonly type: 'models'; readonly agentDir: string }
	/** Which model a flush would summarize with, and where its key comes from (the confirmation before a flush). */
	| Asked & { readonly type: 'plan'; readonly agentDir: string; readonly summarizerModel: string; readonly sessionModel: ModelRef | undefined }
	| Asked & {
		readonly type: 'summarize';
		/** One flush's summarizer: its choice and fallback state live in the worker under this number. */
		readonly handle: number;
		/** Sent with every call, so a worker that restarted builds the handle again. */
		readonly spec: SummarizerSpec;
		readonly prompt: string;
		readonly input: SummarizeInput | undefined;
		readonly aborted: boolean;
		readonly wantsProgress: boolean;
	};

export interface AnswerOf {
	readonly facts: ModelFacts | undefined;
	readonly models: ModelChoice[];
	readonly plan: SummarizerPlan;
	readonly summarize: { readonly result: SummarizeResult; readonly offlineReason: string | undefined };
}

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

export type ToWorker =
	| Question
	| { readonly type: 'abort'; readonly id: number }
	| { readonly type: 'release'; readonly handle: number };

export type FromWorker =
	| { readonly type: 'answer'; readonly id: number; readonly value: AnswerOf[keyof AnswerOf] }
	| { readonly type: 'failure'; readonly id: number; readonly message: string; readonly kind?: SummarizerFailureKind }
	| { readonly type: 'progress'; readonly id: number; readonly receivedChars: number }
	| { readonly type: 'log'; readonly handle: number; readonly level: LogLevel; readonly message: string }
	/** Sent once for each pi-ai the worker loads: which one answers, and why. */
	| { readonly type: 'library'; readonly origin: PiAiOrigin };

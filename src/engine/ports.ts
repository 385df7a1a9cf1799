/**
 * The engine's ports: the only ways pure engine code reaches the outside world. The node layer
 * implements them (pi-ai summarizer, blob files, hashing); tests pass small real implementations.
 */
import type { Usage } from './session/types';

/** One tool call of a batch, as a summarizer that works without an LLM needs it. */
export interface SummarizeCall {
	/** The call's label in the prompt, e.g. `[[2:bash]]` (2.1.0+; undefined when the release sends none). */
	readonly label: string | undefined;
	readonly toolName: string;
	readonly args: Readonly<Record<string, unknown>>;
	readonly resultText: string;
	readonly isError: boolean;
}

/**
 * What a prompt is about, in structured form. LLM summarizers read only `prompt`; the offline
 * extractive summarizer reads this instead (it must not parse a prompt meant for a model).
 */
export type SummarizeInput =
	| { readonly kind: 'batch'; readonly assistantText: string; readonly calls: readonly SummarizeCall[] }
	| { readonly kind: 'range'; readonly summaries: readonly string[] };

/** One summarizer call: a single user message, no system prompt (pi-condense's shape). */
export interface SummarizeRequest {
	readonly prompt: string;
	readonly input?: SummarizeInput;
	readonly signal?: AbortSignal;
	/** Called with the number of summary characters streamed so far. */
	readonly onTextProgress?: (receivedChars: number) => void;
}

export interface SummarizeResult {
	readonly text: string;
	readonly usage: Usage;
	/** `provider/id` of the model that answered (or `offline` for the extractive summarizer). */
	readonly model: string;
}

/**
 * Summarizes text with an LLM. Rejects with `SummarizerError` on any failure: HTTP or provider
 * errors, an abort, a `length` stop, or an empty reply. Never resolves with an unusable summary.
 */
export interface Summarizer {
	/** Human-readable name of what will answer, e.g. `anthropic/claude-haiku-4-5` or `offline (extractive)`. */
	readonly label: string;
	summarize(request: SummarizeRequest): Promise<SummarizeResult>;
}

export type SummarizerFailureKind = 'aborted' | 'error' | 'length' | 'empty' | 'timeout' | 'credentials' | 'model';

export class SummarizerError extends Error {
	constructor(readonly kind: SummarizerFailureKind, message: string) {
		super(message);
		this.name = 'SummarizerError';
	}
}

/** Structural match for VS Code's `LogOutputChannel`, so the host can pass its channel straight in. */
export interface Logger {
	trace(message: string): void;
	debug(message: string): void;
	info(message: string): void;
	warn(message: string): void;
	error(message: string | Error): void;
}

export const nullLogger: Logger = {
	trace: () => undefined,
	debug: () => undefined,
	info: () => undefined,
	warn: () => undefined,
	error: () => undefined,
};

/**
 * Reads pi-condense's spill files. The node layer implements it on the session's
 * `<sessionId>-blobs/` folder next to the session file; `fileName` is always a bare
 * `[A-Za-z0-9_-]+.txt` name, never a path. Resolves undefined when the file is missing or unreadable.
 */
export interface BlobReader {
	readBlob(fileName: string): Promise<string | undefined>;
}

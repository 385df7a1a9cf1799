/**
 * The extension's one way to pi-ai: a worker thread (`piAiWorkerMain.ts`, built to
 * `dist/pi-ai-worker.js`) that loads it and answers model lookups, model listings and summarizer
 * calls, so the extension host never compiles pi-ai's several megabytes (~0.4 s of its thread).
 * The worker starts on the first question and stops after a minute without one and without an
 * open flush (it holds pi-ai's memory); it shares the host's environment, so a provider key set
 * after it started is seen as the host sees it. Each question carries the host's policy on the
 * installed Pi's pi-ai (workspace trust, `installedPiAi`), and the worker says which pi-ai it loaded.
 */
import { join } from 'node:path';
import { SHARE_ENV, Worker } from 'node:worker_threads';
import { SummarizerError, type Logger } from '../../../engine/ports';
import type { SummarizerFactory } from '../defaultSummarizer';
import type { PiAiOrigin } from '../library/modelLibrary';
import type { ModelLookup } from '../modelPricing';
import type { ModelChoice, ModelRef } from '../models';
import type { SummarizerPlan } from '../summarizerPlan';
import type { InstalledPiAiPolicy } from '../piAiLoader';
import type { AnswerOf, FromWorker, Question, ToWorker } from './protocol';
import { createWorkerSummarizer, type SummarizerChannel } from './workerSummarizer';

const PI_AI_WORKER_FILE = 'pi-ai-worker.js';

/** Asks which model a flush of a session would summarize with (`summarizerPlan.ts`). */
export type SummarizerPlanner = (agentDir: string, summarizerModel: string, sessionModel: ModelRef | undefined) => Promise<SummarizerPlan>;
const IDLE_MS = 60_000;

/** A question without its id and policy (given when it is sent). */
export type Ask = Question extends infer Q ? Q extends Question ? Omit<Q, 'id' | 'policy'> : never : never;

interface Waiting {
	readonly resolve: (value: AnswerOf[keyof AnswerOf]) => void;
	readonly reject: (error: Error) => void;
	readonly onProgress?: (receivedChars: number) => void;
}

export interface PiAiWorkerOptions {
	/** Holds the built worker and the pi-ai chunk it loads. */
	readonly distDir: string;
	/** How long the worker outlives its last question (tests shorten it). */
	readonly idleMs?: number;
	/** Whether the installed Pi's pi-ai may answer, asked for each question (VS Code: workspace trust). */
	readonly installedPiAi?: () => InstalledPiAiPolicy;
	/** Told which pi-ai answers, each time the worker loads one. */
	readonly onLibrary?: (origin: PiAiOrigin) => void;
}

const BUNDLED_ONLY: InstalledPiAiPolicy = { allowed: false, reason: 'Pi Condense was asked to use its own' };

export class PiAiWorker {
	private worker: Worker | undefined;
	private readonly waiting = new Map<number, Waiting>();
	/** The loggers of the flushes whose summarizer lives in the running worker, by handle. */
	private readonly handles = new Map<number, Logger>();
	private nextId = 0;
	private idleTimer: NodeJS.Timeout | undefined;
	private exited: Promise<void> = Promise.resolve();
	private disposed = false;
	private readonly distDir: string;
	private readonly idleMs: number;
	private readonly policy: () => InstalledPiAiPolicy;
	private readonly onLibrary: ((origin: PiAiOrigin) => void) | undefined;
	private lastOrigin: PiAiOrigin | undefined;

	constructor(options: PiAiWorkerOptions) {
		this.distDir = options.distDir;
		this.idleMs = options.idleMs ?? IDLE_MS;
		this.policy = options.installedPiAi ?? (() => BUNDLED_ONLY);
		this.onLibrary = options.onLibrary;
	}

	/** The pi-ai that answered last, once one has been loaded. */
	get origin(): PiAiOrigin | undefined {
		return this.lastOrigin;
	}

	/** Whether the thread is running. */
	get running(): boolean {
		return this.worker !== undefined;
	}

	/** Resolves when the last thread started has exited (at once when none was). */
	stopped(): Promise<void> {
		return this.exited;
	}

	readonly lookUp: ModelLookup = (agentDir, provider, modelId) => this.ask({ type: 'facts', agentDir, provider, modelId }) as Promise<AnswerOf['facts']>;

	/** The models that have credentials, for the model picker. */
	readonly listModels = (agentDir: string): Promise<ModelChoice[]> => this.ask({ type: 'models', agentDir }) as Promise<AnswerOf['models']>;

	/** Which model a flush would summarize with (the confirmation before it asks): answered without loading anything on the host. */
	readonly planSummarizer: SummarizerPlanner = (agentDir, summarizerModel, sessionModel) => this.ask({ type: 'plan', agentDir, summarizerModel, sessionModel }) as Promise<AnswerOf['plan']>;

	/** Each flush's default summarizer, running in the worker. */
	readonly summarizers: SummarizerFactory = (choice) => createWorkerSummarizer(this.channel, choice);

	private readonly channel: SummarizerChannel = {
		newHandle: () => this.nextId++,
		summarize: (question, logger, signal, onProgress) => {
			this.handles.set(question.handle, logger);
			return this.ask(question, signal, onProgress) as Promise<AnswerOf['summarize']>;
		},
		release: (handle) => {
			// A handle the running worker never saw (or lost when it stopped) needs no message.
			if (this.handles.delete(handle)) {
				this.post({ type: 'release', handle });
				this.stopWhenIdle();
			}
		},
	};

	async dispose(): Promise<void> {
		this.disposed = true;
		clearTimeout(this.idleTimer);
		const worker = this.worker;
		this.worker = undefined;
		this.handles.clear();
		this.failAll(new Error('Pi Condense is shutting down.'));
		await worker?.terminate();
	}

	private ask(question: Ask, signal?: AbortSignal, onProgress?: (receivedChars: number) => void): Promise<AnswerOf[keyof AnswerOf]> {
		if (this.disposed) {
			return Promise.reject(new Error('Pi Condense is shutting down.'));
		}
		clearTimeout(this.idleTimer);
		const worker = this.worker ??= this.start();
		const id = this.nextId++;
		return new Promise((resolve, reject) => {
			const abort = (): void => this.post({ type: 'abort', id });
			signal?.addEventListener('abort', abort, { once: true });
			const settle = (): void => {
				signal?.removeEventListener('abort', abort);
				this.waiting.delete(id);
			};
			this.waiting.set(id, {
				resolve: (value) => { settle(); resolve(value); },
				reject: (error) => { settle(); reject(error); },
				onProgress,
			});
			worker.postMessage({ ...question, id, policy: this.policy() });
		});
	}

	private post(message: ToWorker): void {
		this.worker?.postMessage(message);
	}

	private start(): Worker {
		// SHARE_ENV: provider keys live in environment variables, which may change after the worker starts.
		const worker = new Worker(join(this.distDir, PI_AI_WORKER_FILE), { env: SHARE_ENV });
		// Never what keeps the extension host (or a test run) alive.
		worker.unref();
		this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
		worker.on('message', (message: FromWorker) => this.receive(message));
		// Only the running thread's end fails what waits: a thread stopped when idle may exit after
		// the next one started, and what waits then is the new thread's.
		worker.on('error', (error) => this.worker === worker && this.failAll(error));
		worker.on('exit', () => {
			if (this.worker === worker) {
				this.worker = undefined;
				this.handles.clear();
				this.failAll(new Error('The pi-ai worker stopped.'));
			}
		});
		return worker;
	}

	private receive(message: FromWorker): void {
		switch (message.type) {
			case 'log':
				this.handles.get(message.handle)?.[message.level](message.message);
				return;
			case 'library':
				this.lastOrigin = message.origin;
				this.onLibrary?.(message.origin);
				return;
			case 'progress':
				this.waiting.get(message.id)?.onProgress?.(message.receivedChars);
				return;
			case 'answer':
				this.waiting.get(message.id)?.resolve(message.value);
				break;
			case 'failure':
				this.waiting.get(message.id)?.reject(message.kind ? new SummarizerError(message.kind, message.message) : new Error(message.message));
				break;
		}
		this.stopWhenIdle();
	}

	private stopWhenIdle(): void {
		const worker = this.worker;
		// No timer without a thread to stop: a message still in flight when the worker was disposed
		// (or stopped) must not leave one behind.
		if (!worker || this.disposed || this.waiting.size > 0 || this.handles.size > 0) {
			return;
		}
		clearTimeout(this.idleTimer);
		this.idleTimer = setTimeout(() => {
			if (this.worker === worker && this.waiting.size === 0 && this.handles.size === 0) {
				this.worker = undefined;
				void worker.terminate();
			}
		}, this.idleMs);
		this.idleTimer.unref();
	}

	private failAll(error: Error): void {
		const waiting = [...this.waiting.values()];
		this.waiting.clear();
		for (const { reject } of waiting) {
			reject(error);
		}
	}
}

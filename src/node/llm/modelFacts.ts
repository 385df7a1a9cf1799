/**
 * Model lookups (price, context window) answered by a worker thread that loads pi-ai
 * (`modelFactsWorker.ts`), so the extension host never compiles pi-ai just to show a price. The
 * worker starts on the first lookup and stops after a minute without one (it holds pi-ai's memory).
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ModelFacts } from './modelPricing';

export const MODEL_FACTS_WORKER_FILE = 'model-facts-worker.js';
const IDLE_MS = 60_000;

export interface ModelFactsRequest {
	readonly id: number;
	readonly agentDir: string;
	readonly provider: string;
	readonly modelId: string;
}

export type ModelFactsAnswer =
	| { readonly id: number; readonly facts: ModelFacts | undefined }
	| { readonly id: number; readonly error: string };

export type ModelLookup = (agentDir: string, provider: string, modelId: string) => Promise<ModelFacts | undefined>;

interface Waiting {
	readonly resolve: (facts: ModelFacts | undefined) => void;
	readonly reject: (error: Error) => void;
}

export class ModelFactsWorker {
	private worker: Worker | undefined;
	private readonly waiting = new Map<number, Waiting>();
	private nextId = 0;
	private idleTimer: NodeJS.Timeout | undefined;

	/** `distDir` holds the built worker and the pi-ai chunk it loads. */
	constructor(private readonly distDir: string) {}

	readonly lookUp: ModelLookup = (agentDir, provider, modelId) => {
		clearTimeout(this.idleTimer);
		const worker = this.worker ??= this.start();
		const id = this.nextId++;
		return new Promise<ModelFacts | undefined>((resolve, reject) => {
			this.waiting.set(id, { resolve, reject });
			const request: ModelFactsRequest = { id, agentDir, provider, modelId };
			worker.postMessage(request);
		});
	};

	async dispose(): Promise<void> {
		clearTimeout(this.idleTimer);
		const worker = this.worker;
		this.worker = undefined;
		this.failAll(new Error('Pi Condense is shutting down.'));
		await worker?.terminate();
	}

	private start(): Worker {
		const worker = new Worker(join(this.distDir, MODEL_FACTS_WORKER_FILE));
		// Never what keeps the extension host (or the CLI) alive.
		worker.unref();
		worker.on('message', (answer: ModelFactsAnswer) => {
			const waiting = this.waiting.get(answer.id);
			this.waiting.delete(answer.id);
			if ('error' in answer) {
				waiting?.reject(new Error(answer.error));
			} else {
				waiting?.resolve(answer.facts);
			}
			this.stopWhenIdle(worker);
		});
		worker.on('error', (error) => this.failAll(error));
		worker.on('exit', () => {
			if (this.worker === worker) {
				this.worker = undefined;
			}
			this.failAll(new Error('The model lookup worker stopped.'));
		});
		return worker;
	}

	private stopWhenIdle(worker: Worker): void {
		if (this.waiting.size > 0) {
			return;
		}
		clearTimeout(this.idleTimer);
		this.idleTimer = setTimeout(() => {
			if (this.worker === worker && this.waiting.size === 0) {
				this.worker = undefined;
				void worker.terminate();
			}
		}, IDLE_MS);
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

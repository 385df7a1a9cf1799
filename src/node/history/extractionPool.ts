/**
 * The session index's extraction threads (`worker/extractionWorkerMain.ts`, built to
 * `dist/history-worker.js`): a build reads and extracts files there while this thread writes what
 * they gave, so a cold build uses two cores (one thread by default: DEFAULT_EXTRACTION_THREADS). Batches are delivered in the order they come, one at a
 * time; while the writer commits, a thread reads on until batches of `heldBytes` of lines wait
 * here and `heldBytes` more per thread are on their way, whatever the history's size. A thread that stops (a file too large for its
 * memory) fails the jobs it held, which the build reports as problems of those files; the next job
 * starts a new one.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FileReader } from './fileExtraction';
import type { FileSink } from './fileIndexer';
import { HELD_BYTES, type FromWorker, type ToWorker, type WorkerSettings } from './worker/protocol';

export const HISTORY_WORKER_FILE = 'history-worker.js';

/**
 * Extraction threads a build starts by default, on any number of cores: one. Each thread is a
 * JavaScript heap of its own (50-75 MB through a cold build of the bench history, mostly its young
 * generation and what it grows to before a full collection; capping the young generation made it
 * larger, as more was promoted): with two, a build's peak RSS was 314-345 MB, over the 300 MB
 * budget. A second thread gains little where it has a core of its own: the writer's thread (6.1 s on
 * the bench history, most of it SQLite's full-text index) then bounds the build, against 7 s for one
 * extraction thread (docs/performance.md).
 */
export const DEFAULT_EXTRACTION_THREADS = 1;

/** A job's failure in the worker: the file could not be read (`code`, as Node's fs gives it). */
export class ExtractionError extends Error {
	constructor(message: string, readonly code: string | undefined) {
		super(message);
	}
}

/** A failure as an Error (an abort's reason may be anything); an Error is kept as it is, so callers can tell what it was. */
function asError(reason: unknown): Error {
	return reason instanceof Error ? reason : new Error(String(reason));
}

interface Waiting {
	readonly sink: FileSink;
	readonly signal: AbortSignal | undefined;
	readonly resolve: () => void;
	readonly reject: (error: unknown) => void;
	failed: boolean;
}

interface Thread {
	readonly worker: Worker;
	readonly jobs: Map<number, Waiting>;
}

export class ExtractionPool {
	private readonly threads: Thread[] = [];
	/** Deliveries run one at a time, in the order batches come. */
	private delivery: Promise<void> = Promise.resolve();
	private nextId = 0;
	private closed = false;
	private readonly watched = new WeakSet<AbortSignal>();
	/** Batches received and not yet handed to the writer, and the bytes of lines they cover. */
	private waitingBatches = 0;
	private waitingBytes = 0;

	private constructor(private readonly workerFile: string, private readonly size: number, private readonly heldBytes: number) {}

	/**
	 * A pool over `dist/history-worker.js`; undefined when that file is missing (extraction then runs
	 * in this thread). `heldBytes`: of lines whose batches wait here, and as many per thread on their way.
	 */
	static create(distDir: string, size = DEFAULT_EXTRACTION_THREADS, heldBytes = HELD_BYTES): ExtractionPool | undefined {
		const workerFile = join(distDir, HISTORY_WORKER_FILE);
		return existsSync(workerFile) ? new ExtractionPool(workerFile, Math.max(1, size), heldBytes) : undefined;
	}

	readonly read: FileReader = (job, sink, signal) => new Promise<void>((resolve, reject) => {
		if (this.closed) {
			reject(new Error('the extraction threads were stopped'));
			return;
		}
		if (signal?.aborted) {
			reject(asError(signal.reason));
			return;
		}
		const thread = this.leastBusy();
		const id = this.nextId++;
		const waiting: Waiting = {
			sink,
			signal,
			resolve: () => {
				thread.jobs.delete(id);
				resolve();
			},
			reject: (error) => {
				waiting.failed = true;
				reject(asError(error));
			},
			failed: false,
		};
		thread.jobs.set(id, waiting);
		this.watch(signal);
		const message: ToWorker = { type: 'job', id, job };
		thread.worker.postMessage(message);
	});

	/** One listener per signal (a build passes the same one with every file): a stop fails every job it was given for. */
	private watch(signal: AbortSignal | undefined): void {
		if (!signal || this.watched.has(signal)) {
			return;
		}
		this.watched.add(signal);
		signal.addEventListener('abort', () => {
			for (const thread of this.threads) {
				for (const waiting of thread.jobs.values()) {
					if (waiting.signal === signal) {
						waiting.reject(asError(signal.reason));
					}
				}
			}
		}, { once: true });
	}

	/** Batches received and not yet handed to the writer: those of `heldBytes` of lines, and `heldBytes` more per thread (and one batch beyond each). */
	get heldBatches(): number {
		return this.waitingBatches;
	}

	/** Stops every thread (what they were doing is dropped). */
	async close(): Promise<void> {
		this.closed = true;
		await Promise.all(this.threads.splice(0).map((thread) => thread.worker.terminate()));
	}

	private leastBusy(): Thread {
		const idle = this.threads.reduce<Thread | undefined>((best, thread) => (!best || thread.jobs.size < best.jobs.size ? thread : best), undefined);
		if (idle && (idle.jobs.size === 0 || this.threads.length >= this.size)) {
			return idle;
		}
		return this.start();
	}

	private start(): Thread {
		const worker = new Worker(this.workerFile, { workerData: { heldBytes: this.heldBytes } satisfies WorkerSettings });
		const thread: Thread = { worker, jobs: new Map() };
		this.threads.push(thread);
		worker.on('message', (message: FromWorker) => this.receive(thread, message));
		const stopped = (error: Error): void => {
			const at = this.threads.indexOf(thread);
			if (at >= 0) {
				this.threads.splice(at, 1);
			}
			for (const waiting of thread.jobs.values()) {
				waiting.reject(error);
			}
			thread.jobs.clear();
		};
		worker.on('error', (error) => stopped(new Error(`the extraction thread stopped: ${error.message}`)));
		worker.on('exit', (code) => stopped(new Error(`the extraction thread stopped (exit ${code})`)));
		return thread;
	}

	private receive(thread: Thread, message: FromWorker): void {
		const waiting = thread.jobs.get(message.id);
		const ack = (): void => {
			const reply: ToWorker = { type: 'ack', bytes: message.type === 'batch' ? message.batch.bytes : 0 };
			thread.worker.postMessage(reply);
		};
		switch (message.type) {
			case 'decided':
				this.deliver(async () => {
					try {
						if (waiting && !waiting.failed) {
							await waiting.sink.decided(message.decision);
						}
					} catch (error) {
						waiting?.reject(error);
					}
				});
				return;
			case 'batch': {
				// Acknowledged at once while few wait, else when its turn comes: the thread reads on while
				// earlier batches are written, and batches of at most `heldBytes` (and as many more per thread) are held.
				const early = this.waitingBytes < this.heldBytes;
				this.waitingBatches++;
				this.waitingBytes += message.batch.bytes;
				if (early) {
					ack();
				}
				this.deliver(async () => {
					this.waitingBatches--;
					this.waitingBytes -= message.batch.bytes;
					if (!early) {
						ack();
					}
					try {
						if (waiting && !waiting.failed) {
							await waiting.sink.batch(message.batch);
						}
					} catch (error) {
						waiting?.reject(error);
					}
				});
				return;
			}
			case 'done':
				this.deliver(() => (waiting?.failed === false ? waiting.resolve() : thread.jobs.delete(message.id)));
				return;
			case 'failed':
				this.deliver(() => {
					thread.jobs.delete(message.id);
					waiting?.reject(new ExtractionError(message.message, message.code));
				});
				return;
		}
	}

	private deliver(work: () => unknown): void {
		this.delivery = this.delivery.then(work).then(() => undefined, () => undefined);
	}
}

/**
 * The messages between the session index and its extraction worker (`extractionWorkerMain.ts`):
 * files to read, what each needs and the batches of its lines back (each acknowledged when its turn
 * to be written comes, so batches of at most `heldBytes` of lines of a worker wait at a time),
 * and the end or failure of each file.
 */
import type { ExtractedBatch } from '../fileIndexer';
import type { FileDecision, FileJob } from '../fileIndexer';

/**
 * Bytes of lines whose batches a worker may send without an acknowledgement, and whose batches the
 * pool holds for the writer before it acknowledges (`ExtractionPool`): enough to read on while the
 * writer commits, which holds its thread (it acknowledges nothing meanwhile). In bytes, not
 * batches: a thousand small sessions make a thousand small batches; and of lines, whose rows are a
 * tenth of them or less. 64 MB: with 16 the thread waited 0.75-0.9 s of a 9 s cold build of the
 * bench history through the command line's commits, and the build took 6-8% longer (3 runs each).
 */
export const HELD_BYTES = 64 * 1024 * 1024;

/** What a worker is started with (`workerData`). */
export interface WorkerSettings {
	/** Bytes of lines sent and not acknowledged before the worker waits (HELD_BYTES). */
	readonly heldBytes: number;
}

export type ToWorker =
	| { readonly type: 'job'; readonly id: number; readonly job: FileJob }
	/** The turn of a batch (of `bytes` of lines) to be written came. */
	| { readonly type: 'ack'; readonly bytes: number };

export type FromWorker =
	| { readonly type: 'decided'; readonly id: number; readonly decision: FileDecision }
	| { readonly type: 'batch'; readonly id: number; readonly batch: ExtractedBatch }
	| { readonly type: 'done'; readonly id: number }
	| { readonly type: 'failed'; readonly id: number; readonly message: string; readonly code: string | undefined };

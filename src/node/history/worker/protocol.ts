/**
 * The messages between the session index and its extraction worker (`extractionWorkerMain.ts`):
 * files to read, what each needs and the batches of its lines back (each acknowledged when its turn
 * to be written comes, so at most MAX_UNACKED batches of a worker wait at a time), and the end or
 * failure of each file.
 */
import type { ExtractedBatch } from '../fileIndexer';
import type { FileDecision, FileJob } from '../fileIndexer';

/** Batches a worker may send before the first of them is acknowledged (enough to read on while the writer commits). */
export const MAX_UNACKED = 4;

export type ToWorker =
	| { readonly type: 'job'; readonly id: number; readonly job: FileJob }
	/** One batch's turn to be written came. */
	| { readonly type: 'ack' };

export type FromWorker =
	| { readonly type: 'decided'; readonly id: number; readonly decision: FileDecision }
	| { readonly type: 'batch'; readonly id: number; readonly batch: ExtractedBatch }
	| { readonly type: 'done'; readonly id: number }
	| { readonly type: 'failed'; readonly id: number; readonly message: string; readonly code: string | undefined };

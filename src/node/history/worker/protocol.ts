/**
 * The messages between the session index and its extraction worker (`extractionWorkerMain.ts`):
 * files to read, what each needs and the batches of its lines back (each acknowledged when its turn
 * to be written comes, so batches of at most MAX_UNACKED_BYTES of lines of a worker wait at a time),
 * and the end or failure of each file.
 */
import type { ExtractedBatch } from '../fileIndexer';
import type { FileDecision, FileJob } from '../fileIndexer';

/**
 * Bytes of lines a worker may send in batches not yet acknowledged (enough to read on while the
 * writer commits, which holds its thread: it acknowledges nothing meanwhile). In bytes, not batches:
 * a thousand small sessions make a thousand small batches. It sends one more batch beyond it at most.
 */
export const MAX_UNACKED_BYTES = 16 * 1024 * 1024;

export type ToWorker =
	| { readonly type: 'job'; readonly id: number; readonly job: FileJob }
	/** The turn of a batch (of `bytes` of lines) to be written came. */
	| { readonly type: 'ack'; readonly bytes: number };

export type FromWorker =
	| { readonly type: 'decided'; readonly id: number; readonly decision: FileDecision }
	| { readonly type: 'batch'; readonly id: number; readonly batch: ExtractedBatch }
	| { readonly type: 'done'; readonly id: number }
	| { readonly type: 'failed'; readonly id: number; readonly message: string; readonly code: string | undefined };

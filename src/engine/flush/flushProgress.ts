/**
 * Progress events of a flush, for `/pruner now`-style per-batch rows (`○ Batch i/N · k tool calls
 * · pending`, a spinner with streamed characters, ✓ or ⚠). Types only.
 */

export type BatchSkipReason = 'trivial' | 'deduped' | 'oversized' | 'failed' | 'cancelled';

export type FlushProgress =
	/** The batches that will be processed, before any summarizer call. */
	| { readonly type: 'batches'; readonly batches: readonly { readonly toolCallCount: number; readonly rawChars: number }[] }
	| { readonly type: 'batch-start'; readonly index: number; readonly total: number }
	| { readonly type: 'batch-text'; readonly index: number; readonly total: number; readonly receivedChars: number }
	| { readonly type: 'batch-done'; readonly index: number; readonly total: number; readonly summaryChars: number }
	| { readonly type: 'batch-skipped'; readonly index: number; readonly total: number; readonly reason: BatchSkipReason }
	/** Chain compression: the chains picked, then each one written into the plan. */
	| { readonly type: 'chains'; readonly count: number }
	| { readonly type: 'chain-done'; readonly blockId: string; readonly fused: boolean };

export type ProgressSink = (event: FlushProgress) => void;

/** Calls `sink` and swallows its errors: a broken progress view must not break a flush. */
export function safeProgress(sink: ProgressSink | undefined): ProgressSink {
	return (event) => {
		try {
			sink?.(event);
		} catch {
			// progress is advisory
		}
	};
}

/**
 * The progress lines of a flush, one per batch as `/pruner now` shows them: `Batch i/N · k tool calls
 * · pending`, then the streamed summary characters, then ✓ or ⚠. Pure.
 */
import { formatCompactCount } from '../../engine/condense';
import type { FlushProgress } from '../../engine/flush';

export interface ProgressLine {
	readonly text: string;
	/** Share of the whole flush this event completes, in percent (for the progress bar). */
	readonly increment: number;
}

export class FlushProgressText {
	private batches: readonly { readonly toolCallCount: number; readonly rawChars: number }[] = [];

	line(event: FlushProgress): ProgressLine | undefined {
		switch (event.type) {
			case 'batches':
				this.batches = event.batches;
				return { text: `${event.batches.length} batch${event.batches.length === 1 ? '' : 'es'} to summarize`, increment: 0 };
			case 'batch-start':
				return { text: `${this.label(event.index, event.total)} · ${this.calls(event.index)} · pending`, increment: 0 };
			case 'batch-text':
				return { text: `${this.label(event.index, event.total)} · ${formatCompactCount(event.receivedChars)} summary chars / ${formatCompactCount(this.raw(event.index))} raw chars`, increment: 0 };
			case 'batch-done':
				return { text: `✓ ${this.label(event.index, event.total)} · ${this.calls(event.index)} · ${formatCompactCount(event.summaryChars)} summary chars`, increment: 100 / Math.max(1, event.total) };
			case 'batch-skipped':
				return { text: `⚠ ${this.label(event.index, event.total)} · ${this.calls(event.index)} · skipped (${event.reason})`, increment: 100 / Math.max(1, event.total) };
			case 'chains':
				return event.count > 0 ? { text: `compressing ${event.count} chain${event.count === 1 ? '' : 's'}`, increment: 0 } : undefined;
			case 'chain-done':
				return { text: `✓ ${event.blockId} compressed${event.fused ? ' (fused range summary)' : ''}`, increment: 0 };
		}
	}

	private label(index: number, total: number): string {
		return `Batch ${index + 1}/${total}`;
	}

	private calls(index: number): string {
		const count = this.batches[index]?.toolCallCount ?? 0;
		return `${count} tool call${count === 1 ? '' : 's'}`;
	}

	private raw(index: number): number {
		return this.batches[index]?.rawChars ?? 0;
	}
}

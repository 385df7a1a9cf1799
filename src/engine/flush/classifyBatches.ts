/**
 * After the spill step, each captured batch is classified before any summarizer call (pi-condense's
 * pre-flush pipeline, steps 4–5): calls already handled by the spill step leave the batch, then
 * content-hash duplicates of indexed results become aliases, then a batch whose remaining result
 * text is under `minBatchChars` is trivial. A batch with nothing left after the spill step is not
 * a pending batch at all (pi-condense spilled those at `turn_end`). Pure.
 */
import type { PendingBatch, PendingCall } from '../condense/pending/pendingTypes';
import type { DedupIndex } from './dedupIndex';
import type { BatchSpills } from './spillPhase';

export type PreparedKind = 'handled' | 'summarize' | 'trivial' | 'deduped';

export interface DedupedCall {
	readonly call: PendingCall;
	readonly originalToolCallId: string;
}

export interface PreparedBatch {
	readonly captured: PendingBatch;
	readonly spills: BatchSpills;
	readonly deduped: readonly DedupedCall[];
	/** The calls left for the summarizer (or found trivial). */
	readonly remaining: readonly PendingCall[];
	/** Result characters of `remaining`. */
	readonly rawChars: number;
	readonly dedupRawChars: number;
	readonly kind: PreparedKind;
}

export interface ClassifySettings {
	readonly dedupByContentHash: boolean;
	readonly minBatchChars: number;
}

export function classifyBatch(captured: PendingBatch, spills: BatchSpills, dedup: DedupIndex, settings: ClassifySettings): PreparedBatch {
	const unspilled = captured.toolCalls.filter((call) => !spills.records.has(call.key) && !spills.aliases.has(call.key));
	const deduped: DedupedCall[] = [];
	const remaining: PendingCall[] = [];
	for (const call of unspilled) {
		const original = settings.dedupByContentHash ? dedup.originalFor(call.toolCallId, dedup.keyOf(call.toolName, call.resultText)) : undefined;
		if (original === undefined) {
			remaining.push(call);
		} else {
			deduped.push({ call, originalToolCallId: original });
		}
	}
	const rawChars = sumChars(remaining);
	const dedupRawChars = sumChars(deduped.map((d) => d.call));
	let kind: PreparedKind;
	if (unspilled.length === 0) {
		kind = 'handled';
	} else if (remaining.length === 0) {
		kind = 'deduped';
	} else if (settings.minBatchChars > 0 && rawChars < settings.minBatchChars) {
		kind = 'trivial';
	} else {
		kind = 'summarize';
	}
	return { captured, spills, deduped, remaining, rawChars, dedupRawChars, kind };
}

function sumChars(calls: readonly PendingCall[]): number {
	return calls.reduce((sum, call) => sum + call.resultText.length, 0);
}

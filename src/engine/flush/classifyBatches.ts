/**
 * Each captured batch is classified before any summarizer call (pi-condense's pre-flush pipeline):
 * content-hash duplicates of indexed results become aliases, then a batch whose remaining result
 * text is under `minBatchChars` is trivial. Pure.
 */
import type { PendingBatch, PendingCall } from '../condense/pending/pendingTypes';
import type { DedupIndex } from './dedupIndex';

export type PreparedKind = 'summarize' | 'trivial' | 'deduped';

export interface DedupedCall {
	readonly call: PendingCall;
	/** The original's key, as the release keys it. */
	readonly originalKey: string;
}

export interface PreparedBatch {
	readonly captured: PendingBatch;
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

export function classifyBatch(captured: PendingBatch, dedup: DedupIndex, settings: ClassifySettings): PreparedBatch {
	const deduped: DedupedCall[] = [];
	const remaining: PendingCall[] = [];
	for (const call of captured.toolCalls) {
		const original = settings.dedupByContentHash ? dedup.originalFor(call.key, dedup.keyOf(call.toolName, call.resultText)) : undefined;
		if (original === undefined) {
			remaining.push(call);
		} else {
			deduped.push({ call, originalKey: original });
		}
	}
	const rawChars = sumChars(remaining);
	const dedupRawChars = sumChars(deduped.map((d) => d.call));
	let kind: PreparedKind;
	if (remaining.length === 0) {
		kind = 'deduped';
	} else if (settings.minBatchChars > 0 && rawChars < settings.minBatchChars) {
		kind = 'trivial';
	} else {
		kind = 'summarize';
	}
	return { captured, deduped, remaining, rawChars, dedupRawChars, kind };
}

function sumChars(calls: readonly PendingCall[]): number {
	return calls.reduce((sum, call) => sum + call.resultText.length, 0);
}

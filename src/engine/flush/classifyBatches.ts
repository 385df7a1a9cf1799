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

const NONE_DEDUPED: readonly DedupedCall[] = Object.freeze([]);

export function classifyBatch(captured: PendingBatch, dedup: DedupIndex, settings: ClassifySettings): PreparedBatch {
	const deduped: DedupedCall[] = [];
	for (const call of captured.toolCalls) {
		const original = settings.dedupByContentHash ? dedup.originalFor(call) : undefined;
		if (original !== undefined) {
			deduped.push({ call, originalKey: original });
		}
	}
	// Most batches have no duplicate: they share the captured lists (one list fewer per batch, and
	// a first flush of a large session has tens of thousands of batches, all kept to the end).
	const remaining = deduped.length === 0 ? captured.toolCalls : captured.toolCalls.filter((call) => !deduped.some((d) => d.call === call));
	const rawChars = deduped.length === 0 ? captured.rawChars : sumChars(remaining);
	const dedupRawChars = sumChars(deduped.map((d) => d.call));
	let kind: PreparedKind;
	if (remaining.length === 0) {
		kind = 'deduped';
	} else if (settings.minBatchChars > 0 && rawChars < settings.minBatchChars) {
		kind = 'trivial';
	} else {
		kind = 'summarize';
	}
	return { captured, deduped: deduped.length === 0 ? NONE_DEDUPED : deduped, remaining, rawChars, dedupRawChars, kind };
}

function sumChars(calls: readonly PendingCall[]): number {
	return calls.reduce((sum, call) => sum + call.resultText.length, 0);
}

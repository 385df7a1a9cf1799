/**
 * Binds the refs of summary messages (`{shortId: "t3", toolCallId}`) to index records, which gives
 * each record its `tN`. Pure apart from setting `shortRef` on the drafts it is given.
 *
 * A summary and its index entry are written next to each other (summary first for session
 * delivery, possibly after it for runtime delivery), so among records of the ref's id the one whose
 * index entry is nearest to the summary wins; records that already have a ref are taken last.
 */
import type { RecordDraft, StateDrafts } from './stateDrafts';

export interface SummaryRefBinding {
	/** `tN` → record (a later summary reusing a `tN` wins, as in pi-condense). */
	readonly byShortId: ReadonlyMap<string, RecordDraft>;
	/** Per summary, per ref: the bound record. */
	readonly perSummary: readonly (readonly (RecordDraft | undefined)[])[];
}

export function bindSummaryRefs(drafts: StateDrafts): SummaryRefBinding {
	const byShortId = new Map<string, RecordDraft>();
	const perSummary = drafts.summaries.map((summary) => summary.details.toolCallRefs.map((ref) => {
		const candidates = drafts.recordsById.get(ref.toolCallId);
		const draft = candidates && nearest(candidates, summary.position);
		if (draft) {
			draft.shortRef = ref.shortId;
			byShortId.set(ref.shortId, draft);
		}
		return draft;
	}));
	return { byShortId, perSummary };
}

function nearest(candidates: readonly RecordDraft[], position: number): RecordDraft | undefined {
	let best: RecordDraft | undefined;
	for (const candidate of candidates) {
		if (!best || isCloser(candidate, best, position)) {
			best = candidate;
		}
	}
	return best;
}

function isCloser(a: RecordDraft, b: RecordDraft, position: number): boolean {
	const aFree = a.shortRef === undefined;
	if (aFree !== (b.shortRef === undefined)) {
		return aFree;
	}
	const aDistance = Math.abs(a.position - position);
	const bDistance = Math.abs(b.position - position);
	if (aDistance !== bDistance) {
		return aDistance < bDistance;
	}
	// Same distance on both sides: session delivery writes the summary first, the index after it.
	return a.position > position;
}

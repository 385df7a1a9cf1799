/**
 * The `context-prune-chain` entry of a planned chain, as pi-condense writes it (key order, the refs
 * of its calls, a deterministic body's mark): the flush writes it, and the preview's what-if shows
 * the chain it would write. Pure.
 */
import { occurrenceKey } from '../condense/occurrence';
import type { CondenseState } from '../condense/state/condenseState';
import type { ChainCompressionEntry, SummaryToolCallRef } from '../condense/types';
import { isDeterministic, type ChainJob } from './planChains';

/** Occurrence key → `tN` of refs just allocated. */
export function refsByKey(refs: readonly SummaryToolCallRef[]): Map<string, string> {
	return new Map(refs.map((ref) => [occurrenceKey(ref.toolCallId, ref.resultTimestamp), ref.shortId]));
}

/** The `tN` of each lookup key that has one, in key order (a fresh backfill ref wins). */
export function chainToolRefs(job: ChainJob, state: CondenseState, backfilled: ReadonlyMap<string, string>): string[] {
	return job.lookupKeys.flatMap((key) => {
		const ref = backfilled.get(key) ?? state.shortRefs.get(key);
		return ref === undefined ? [] : [ref];
	});
}

/** The chain entry in pi-condense's key order; `bodySource` marks a deterministic body (2.9.0). */
export function chainEntry(job: ChainJob, blockId: string, compressedAt: number, body: string | undefined, state: CondenseState, backfilled: ReadonlyMap<string, string>): ChainCompressionEntry {
	const { chain } = job;
	return {
		blockId,
		startUserTimestamp: chain.startUserTimestamp,
		droppedToolCallIds: chain.middleToolCallIds,
		finalAssistantTimestamp: chain.finalAssistantTimestamp,
		toolRefs: chainToolRefs(job, state, backfilled),
		compressedAt,
		...(body !== undefined ? { rangeSummaryText: body } : {}),
		...(isDeterministic(job) ? { bodySource: 'deterministic' as const } : {}),
		...(chain.protectedToolCallIds.length > 0 ? { protectedToolCallIds: chain.protectedToolCallIds } : {}),
		...(job.droppedOccurrenceKeys ? { droppedOccurrenceKeys: job.droppedOccurrenceKeys } : {}),
	};
}

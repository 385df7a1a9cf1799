/**
 * The body text of a compressed chain's synthetic message. Pure.
 *
 * pi-condense uses the fused `rangeSummaryText` when the chain has one, else the distinct texts of
 * the per-batch summaries that cover any of the chain's dropped calls, in branch order, joined with
 * a blank line. Coverage is matched per occurrence, falling back to the bare id for refs that no
 * record backs. Summaries are indexed by what they cover once, so a session with thousands of
 * chains and summaries does not pay chains × summaries.
 */
import type { SummaryInfo } from './condenseState';
import type { ChainDraft } from './stateDrafts';

/** Summary positions by the occurrence key of a ref, and by the bare id of refs without a record. */
export interface SummaryCoverage {
	readonly byKey: ReadonlyMap<string, readonly number[]>;
	readonly byUnboundId: ReadonlyMap<string, readonly number[]>;
}

export function summaryCoverage(summaries: readonly SummaryInfo[]): SummaryCoverage {
	const byKey = new Map<string, number[]>();
	const byUnboundId = new Map<string, number[]>();
	summaries.forEach((summary, position) => {
		for (const ref of summary.refs) {
			const [map, key] = ref.key !== undefined ? [byKey, ref.key] : [byUnboundId, ref.toolCallId];
			const list = map.get(key);
			if (!list) {
				map.set(key, [position]);
			} else if (list[list.length - 1] !== position) {
				list.push(position);
			}
		}
	});
	return { byKey, byUnboundId };
}

export function chainBodyText(chain: ChainDraft, summaries: readonly SummaryInfo[], coverage: SummaryCoverage = summaryCoverage(summaries)): string {
	if (chain.entry.rangeSummaryText !== undefined) {
		return chain.entry.rangeSummaryText;
	}
	return coveringSummaryTexts(chain.droppedKeys, chain.entry.droppedToolCallIds, summaries, coverage).join('\n\n');
}

/** Distinct texts, in branch order, of the summaries covering these occurrences (or bare ids, for refs no record backs). */
export function coveringSummaryTexts(
	keys: Iterable<string>,
	ids: Iterable<string>,
	summaries: readonly SummaryInfo[],
	coverage: SummaryCoverage,
): string[] {
	const positions = new Set<number>();
	for (const key of keys) {
		coverage.byKey.get(key)?.forEach((position) => positions.add(position));
	}
	for (const id of ids) {
		coverage.byUnboundId.get(id)?.forEach((position) => positions.add(position));
	}
	const texts: string[] = [];
	const seen = new Set<string>();
	for (const position of [...positions].sort((a, b) => a - b)) {
		const text = summaries[position]?.text;
		if (text !== undefined && !seen.has(text)) {
			seen.add(text);
			texts.push(text);
		}
	}
	return texts;
}

/**
 * The body text of a compressed chain's synthetic message. Pure.
 *
 * pi-condense uses the fused `rangeSummaryText` when the chain has one, else the distinct texts of
 * the per-batch summaries that cover any of the chain's dropped calls, in branch order, joined with
 * a blank line. Coverage is matched per occurrence, falling back to the bare id for refs that no
 * record backs.
 */
import type { SummaryInfo } from './condenseState';
import type { ChainDraft } from './stateDrafts';

export function chainBodyText(chain: ChainDraft, summaries: readonly SummaryInfo[]): string {
	if (chain.entry.rangeSummaryText !== undefined) {
		return chain.entry.rangeSummaryText;
	}
	const droppedIds = new Set(chain.entry.droppedToolCallIds);
	const texts: string[] = [];
	const seen = new Set<string>();
	for (const summary of summaries) {
		const covers = summary.refs.some((ref) => ref.key !== undefined ? chain.droppedKeys.has(ref.key) : droppedIds.has(ref.toolCallId));
		if (covers && !seen.has(summary.text)) {
			seen.add(summary.text);
			texts.push(summary.text);
		}
	}
	return texts.join('\n\n');
}

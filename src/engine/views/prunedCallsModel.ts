/**
 * The "Pruned Calls" view as plain data for one session: problems found while reading it, the
 * batches still pending, pi-condense's summaries with the tool calls they pruned (`tN`; grouped by
 * turn ranges when there are many), compressed chains (`bN`) with their refs, dedup aliases pointing
 * at their originals, spilled outputs, and the entries Pi 1.x's context edits left out or changed.
 * Ids are stable across refreshes (entry ids, refs, occurrence keys), so expansion survives.
 * Only the top level is built up front: a row's children are built when it is expanded (a large
 * session holds tens of thousands of calls; their rows kept 0.31× the file's size in memory), and
 * a long list is cut into ranges of at most `TREE_PAGE_ROWS` (`treePages.ts`). Pure.
 */
import { formatCompactCount, type PrunedSummaryNode } from '../condense';
import type { Steps } from '../steps';
import { aliasNode, chainNode, pendingBatchNode, problemSource, spilledNode, summaryNode, summaryHolds } from './prunedCallsRows';
import type { Expandable, GroupKind, GroupNode, PrunedNode, RangeNode } from './prunedCallsTypes';
import type { PreparedInsight } from './sessionInsight';
import { arrayRows, pagedRows } from './treePages';
import { appliedEditsSteps } from '../session/contextEdits';
import { contextEditNode } from './contextEditRows';

export type * from './prunedCallsTypes';
export { TREE_PAGE_ROWS } from './treePages';

/** The top-level rows, yielding between pieces of work (see `src/engine/steps.ts`). */
export function* buildPrunedCallsSteps(insight: PreparedInsight, formatTime: (epochMs: number) => string): Steps<PrunedNode[]> {
	const roots: PrunedNode[] = [];
	const preview = insight.config.enabled ? insight.preview : undefined;
	const problems = problemSource(insight.model.diagnostics, insight.state.diagnostics, preview?.diagnostics ?? [], preview?.warnings ?? []);
	if (problems.count > 0) {
		roots.push(group('problems', 'Problems', `${problems.count}`, pagedRows('problems', 'Problems', problems)));
	}
	const pending = insight.pending;
	if (pending.length > 0) {
		const chars = pending.reduce((sum, batch) => sum + batch.rawChars, 0);
		const description = `${pending.length} batch${pending.length === 1 ? '' : 'es'} · ${formatCompactCount(chars)} chars`;
		roots.push(group('pending', 'Pending', description, pagedRows('pending', 'Batches', arrayRows(pending, pendingBatchNode))));
	}
	yield;
	roots.push(...(yield* summaryRootsSteps(insight.prunedTree, formatTime)));
	const chains = insight.state.chains;
	if (chains.length > 0) {
		const rows = arrayRows(chains, (chain) => chainNode(chain, insight), (chain, ref) => chain.entry.blockId === ref);
		roots.push(group('chains', 'Compressed chains', `${chains.length}`, pagedRows('chains', 'Chains', rows)));
	}
	const aliases = [...insight.state.aliases.values()];
	if (aliases.length > 0) {
		const rows = arrayRows(aliases, aliasNode, (alias, ref) => alias.toolCallId === ref);
		roots.push(group('aliases', 'Dedup aliases', `${aliases.length}`, pagedRows('aliases', 'Aliases', rows)));
	}
	const spilled = insight.state.spilled;
	if (spilled.length > 0) {
		const rows = arrayRows(spilled, spilledNode, (occurrence, ref) => occurrence.record.toolCallId === ref);
		roots.push(group('spilled', 'Spilled outputs', `${spilled.length}`, pagedRows('spilled', 'Outputs', rows)));
	}
	const context = insight.context;
	const edits = yield* appliedEditsSteps(context);
	if (edits.length > 0) {
		const omitted = edits.filter((applied) => applied.at === undefined).length;
		const rows = arrayRows(edits, (applied) => contextEditNode(applied, context, insight.model));
		roots.push(group('edits', 'Edited by Pi', `${omitted} left out · ${edits.length - omitted} replaced`, pagedRows('edits', 'Edits', rows)));
	}
	return roots;
}

function group(kind: GroupKind, label: string, description: string, rows: Expandable): GroupNode {
	return { kind: 'group', group: kind, id: kind, label, description, ...rows };
}

/** Up to this many summaries are top-level rows; more are grouped by turn ranges. */
export const SUMMARIES_SHOWN_FLAT = 12;
/** Summaries per turn-range group. */
export const SUMMARIES_PER_GROUP = 10;

/**
 * The summaries: each a top-level row while there are few; past `SUMMARIES_SHOWN_FLAT`, groups of
 * `SUMMARIES_PER_GROUP` consecutive summaries named by their turns (`Turns 12–19`), themselves cut
 * into ranges past `TREE_PAGE_ROWS` groups (the top level goes to the window in one message too).
 * A group's id is its first summary's index: a session only grows at the end, so the groups keep
 * their ids (and their expansion) as summaries are added.
 */
function* summaryRootsSteps(summaries: readonly PrunedSummaryNode[], formatTime: (epochMs: number) => string): Steps<PrunedNode[]> {
	if (summaries.length <= SUMMARIES_SHOWN_FLAT) {
		return summaries.map((summary) => summaryNode(summary, formatTime));
	}
	const starts = Array.from({ length: Math.ceil(summaries.length / SUMMARIES_PER_GROUP) }, (_, i) => i * SUMMARIES_PER_GROUP);
	const groups = arrayRows(starts, (start) => turnGroup(summaries.slice(start, start + SUMMARIES_PER_GROUP), start, formatTime),
		(start, ref) => summaries.slice(start, start + SUMMARIES_PER_GROUP).some((summary) => summaryHolds(summary, ref)));
	const paged = pagedRows('summaries', 'Summary groups', groups);
	return (yield* paged.children()).slice();
}

function turnGroup(summaries: readonly PrunedSummaryNode[], start: number, formatTime: (epochMs: number) => string): RangeNode {
	const turns = summaries.map((summary) => summary.turnIndex).filter((turn): turn is number => turn !== undefined);
	const first = turns.length > 0 ? Math.min(...turns) : undefined;
	const last = turns.length > 0 ? Math.max(...turns) : undefined;
	const original = summaries.reduce((sum, summary) => sum + summary.children.reduce((chars, child) => chars + child.chars, 0), 0);
	const written = summaries.reduce((sum, summary) => sum + summary.text.length, 0);
	const id = `summaries@${start}`;
	return {
		kind: 'range',
		id,
		label: first === undefined ? `Summaries ${start + 1}–${start + summaries.length}` : first === last ? `Turn ${first}` : `Turns ${first}–${last}`,
		description: `${summaries.length} summar${summaries.length === 1 ? 'y' : 'ies'} · ${formatCompactCount(original)} → ${formatCompactCount(written)}`,
		...pagedRows(id, 'Summaries', arrayRows(summaries, (summary) => summaryNode(summary, formatTime), summaryHolds)),
	};
}

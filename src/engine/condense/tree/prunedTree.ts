/**
 * The `/pruner tree` model: one root per summary message on the branch, one child per tool call it
 * summarized, with pi-condense's labels. Pure; time formatting is left to the caller (pi-condense
 * appends the summary's locale time to each root).
 */
import { formatCompactCount } from '../measure/compactFormat';
import type { CondenseState, RecordOccurrence } from '../state/condenseState';
import type { ToolCallRecord } from '../types';
import { mapSteps, type Steps } from '../../steps';

export interface PrunedToolNode {
	readonly toolCallId: string;
	readonly shortRef: string | undefined;
	readonly record: ToolCallRecord;
	/** `tool(k=v, …) · N chars|bytes [error]` */
	readonly label: string;
	/** First 200 characters of the output, whitespace collapsed. */
	readonly preview: string;
	readonly chars: number;
}

export interface PrunedSummaryNode {
	readonly entryId: string;
	/** `[pruner] Turn N summary (K tools · X chars · original Y)` */
	readonly header: string;
	/** `details.timestamp` of the summary, when present. */
	readonly timestamp: number | undefined;
	/** `details.turnIndex`, when present. */
	readonly turnIndex: number | undefined;
	readonly text: string;
	readonly children: readonly PrunedToolNode[];
}

export const EMPTY_TREE_TEXT = 'No pruned tool calls found in this session.';

export function buildPrunedTreeSteps(state: CondenseState): Steps<PrunedSummaryNode[]> {
	return mapSteps(state.summaries, (summary) => {
		const children = summary.refs.flatMap((ref) => {
			// The record the release files this ref's key under (with reused bare ids up to 2.5.0, the latest one).
			const occurrence = state.records.get(ref.key);
			return occurrence ? [toolNode(occurrence)] : [];
		});
		const original = children.reduce((sum, child) => sum + child.chars, 0);
		const count = children.length;
		const header = `[pruner] Turn ${summary.turnIndex ?? '?'} summary (${count} tool${count === 1 ? '' : 's'} · `
			+ `${formatCompactCount(summary.text.length)} chars · original ${formatCompactCount(original)})`;
		return { entryId: summary.entryId, header, timestamp: summary.timestamp, turnIndex: summary.turnIndex, text: summary.text, children };
	});
}

/**
 * The root label: the header, plus ` · <time>` when the summary has a timestamp that is a date
 * (`formatTime` is never given a number `Date` cannot represent: `toISOString` would throw).
 */
export function summaryNodeLabel(node: PrunedSummaryNode, formatTime: (epochMs: number) => string): string {
	return node.timestamp && Math.abs(node.timestamp) <= MAX_DATE_MS ? `${node.header} · ${formatTime(node.timestamp)}` : node.header;
}

/** The largest time value a `Date` holds (ECMAScript: ±100,000,000 days from the epoch). */
const MAX_DATE_MS = 8.64e15;

function toolNode(occurrence: RecordOccurrence): PrunedToolNode {
	const record = occurrence.record;
	const args = Object.entries(record.args).map(([key, value]) => `${key}=${JSON.stringify(value)}`).join(', ');
	const chars = record.resultText.length || record.spillBytes || 0;
	const unit = record.resultText.length || !record.spillBytes ? 'chars' : 'bytes';
	return {
		toolCallId: record.toolCallId,
		shortRef: occurrence.shortRef,
		record,
		label: `${record.toolName}(${args}) · ${formatCompactCount(chars)} ${unit}${record.isError ? ' [error]' : ''}`,
		preview: (record.resultText || record.resultPreview || '').slice(0, 200).replace(/\s+/g, ' '),
		chars,
	};
}

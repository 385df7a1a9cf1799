/**
 * One row of the "Pruned Calls" view per kind of thing it lists, each with its children built
 * only when asked for (see `prunedCallsModel.ts`). Pure.
 */
import {
	formatCompactCount, summaryNodeLabel, type AliasOccurrence, type ChainInfo, type DefectWarning, type PendingBatch, type PrunedSummaryNode, type PrunedToolNode,
	type RecordOccurrence, type ReleaseDiagnostic,
} from '../condense';
import type { SessionDiagnostic } from '../session/types';
import type { AliasNode, ChainNode, ChainRefNode, PendingBatchNode, PendingCallNode, ProblemNode, SpilledNode, SummaryNode, ToolNode } from './prunedCallsTypes';
import type { PreparedInsight } from './sessionInsight';
import { outputHead, toolCallLabel } from './toolCallText';
import { arrayRows, pagedRows, type RowSource } from './treePages';

/**
 * A summary row: `t1–t3 · 27.9k → 291` (its refs, the output it replaced, its own length), and its
 * first line as the description, so what it says is read without hovering it.
 */
export function summaryNode(summary: PrunedSummaryNode, formatTime: (epochMs: number) => string): SummaryNode {
	const id = `summary:${summary.entryId}`;
	const original = summary.children.reduce((sum, child) => sum + child.chars, 0);
	const refs = refRanges(summary.children.map((child) => child.shortRef ?? child.record.toolCallId));
	return {
		kind: 'summary',
		id,
		label: `${refs || '(no calls)'} · ${formatCompactCount(original)} → ${formatCompactCount(summary.text.length)}`,
		description: firstLineOf(summary.text),
		entryId: summary.entryId,
		text: summary.text,
		header: summaryNodeLabel(summary, formatTime),
		...pagedRows(id, 'Calls', arrayRows(summary.children, (child) => toolNode(child, summary.entryId), callIs)),
	};
}

/** `t1–t3, t7`: consecutive refs as ranges, at most three parts (then `…`); other ids as they are. */
export function refRanges(refs: readonly string[]): string {
	const parts: string[] = [];
	let run: { prefix: string; from: number; to: number } | undefined;
	const close = (): void => {
		if (run) {
			parts.push(run.from === run.to ? `${run.prefix}${run.from}` : `${run.prefix}${run.from}–${run.prefix}${run.to}`);
			run = undefined;
		}
	};
	for (const ref of refs) {
		const match = /^t(\d+)$/.exec(ref);
		const number = match ? Number(match[1]) : undefined;
		if (number !== undefined && run && number === run.to + 1) {
			run.to = number;
			continue;
		}
		close();
		if (number === undefined) {
			parts.push(ref);
		} else {
			run = { prefix: 't', from: number, to: number };
		}
	}
	close();
	return parts.length > 3 ? `${parts.slice(0, 3).join(', ')}, …` : parts.join(', ');
}

/** The first line with words of a summary, without its markdown bullet and `[[N:tool]]` label marks. */
function firstLineOf(text: string): string {
	for (const line of text.split('\n')) {
		const words = line.replace(/^[\s>*#-]+/, '').replace(/\*\*/g, '').trim();
		if (words !== '') {
			return words.length > 160 ? `${words.slice(0, 159)}…` : words;
		}
	}
	return '';
}

/** True when one of the summary's calls is `ref` (its `tN` or tool-call id). */
export function summaryHolds(summary: PrunedSummaryNode, ref: string): boolean {
	return summary.children.some((child) => callIs(child, ref));
}

function callIs(child: PrunedToolNode, ref: string): boolean {
	return child.shortRef === ref || child.record.toolCallId === ref;
}

function toolNode(child: PrunedToolNode, summaryEntryId: string): ToolNode {
	const record = child.record;
	const spilled = record.spillPath !== undefined && record.resultText === '';
	return {
		kind: 'tool',
		id: `tool:${summaryEntryId}:${child.shortRef ?? record.toolCallId}`,
		label: `${child.shortRef ?? record.toolCallId} ${toolCallLabel(record.toolName, record.args, child.chars, spilled ? 'bytes' : 'chars', record.isError)}`,
		ref: child.shortRef,
		toolCallId: record.toolCallId,
		toolName: record.toolName,
		args: record.args,
		isError: record.isError,
		outputHead: outputHead(record.resultText || record.resultPreview || ''),
		spilled,
	};
}

export function spilledNode(occurrence: RecordOccurrence): SpilledNode {
	const record = occurrence.record;
	return {
		kind: 'spilled',
		id: `spilled:${occurrence.key}`,
		label: toolCallLabel(record.toolName, record.args, record.spillBytes ?? 0, 'bytes', record.isError),
		description: record.toolCallId,
		toolCallId: record.toolCallId,
		outputHead: outputHead(record.resultPreview ?? ''),
	};
}

export function pendingBatchNode(batch: PendingBatch): PendingBatchNode {
	const calls = batch.toolCalls;
	const count = calls.length;
	const id = `pending:${batch.turnIndex}:${calls[0]?.key ?? ''}`;
	return {
		kind: 'pendingBatch',
		id,
		label: `Turn ${batch.turnIndex} · ${count} tool call${count === 1 ? '' : 's'}`,
		description: `${formatCompactCount(batch.rawChars)} chars`,
		...pagedRows(id, 'Calls', arrayRows(calls, (call): PendingCallNode => ({
			kind: 'pendingCall',
			id: `pendingCall:${call.key}`,
			label: toolCallLabel(call.toolName, call.args, call.resultText.length, 'chars', call.isError),
			toolCallId: call.toolCallId,
			outputHead: outputHead(call.resultText),
		}))),
	};
}

export function chainNode({ entry, bodyText }: ChainInfo, insight: PreparedInsight): ChainNode {
	const dropped = entry.droppedToolCallIds.length;
	const refs = entry.toolRefs;
	const id = `chain:${entry.blockId}`;
	return {
		kind: 'chain',
		id,
		blockId: entry.blockId,
		label: entry.blockId,
		description: `compressed chain · ${dropped} tool call${dropped === 1 ? '' : 's'} dropped · ${refs.length} ref${refs.length === 1 ? '' : 's'}`,
		bodyText,
		...pagedRows(id, 'Refs', arrayRows(refs, (ref): ChainRefNode => {
			const record = insight.state.refs.get(ref)?.record;
			return {
				kind: 'chainRef',
				id: `chainRef:${entry.blockId}:${ref}`,
				ref,
				toolCallId: record?.toolCallId,
				label: ref,
				description: record ? toolCallLabel(record.toolName, record.args, record.resultText.length || record.spillBytes || 0, record.resultText ? 'chars' : 'bytes', record.isError) : 'not in the index',
			};
		})),
	};
}

export function aliasNode(alias: AliasOccurrence): AliasNode {
	const originalRef = alias.original?.shortRef;
	return {
		kind: 'alias',
		id: `alias:${alias.key}`,
		label: alias.toolCallId,
		description: `duplicate of ${originalRef ?? alias.originalToolCallId}${alias.original ? '' : ' (not in the index)'}`,
		toolCallId: alias.toolCallId,
		originalToolCallId: alias.originalToolCallId,
		originalRef,
	};
}

/**
 * Every problem as a row, in this order: the release's own defects that change what is sent (what
 * happens and which release fixes it), the file's and the index's problems by line, then what the
 * release reports about itself (2.6.0+), as it words it. A damaged file may report one per line.
 */
export function problemSource(
	session: readonly SessionDiagnostic[],
	state: readonly SessionDiagnostic[],
	render: readonly ReleaseDiagnostic[],
	defects: readonly DefectWarning[],
): RowSource {
	const lines = state.length === 0 ? session : [...session, ...state];
	return {
		count: defects.length + lines.length + render.length,
		row(index) {
			if (index < defects.length) {
				return defectRow(defects[index] as DefectWarning, index);
			}
			const at = index - defects.length;
			return at < lines.length ? lineRow(lines[at] as SessionDiagnostic, at) : renderRow(render[at - lines.length] as ReleaseDiagnostic, at - lines.length);
		},
	};
}

function defectRow(warning: DefectWarning, i: number): ProblemNode {
	return {
		kind: 'problem',
		id: `problem:defect:${warning.kind}:${i}`,
		label: warning.message,
		description: `pi-condense ${warning.release} defect${warning.fixedIn ? ` (fixed in ${warning.fixedIn})` : ''}`,
		severity: 'warning',
		line: undefined,
	};
}

function lineRow(diagnostic: SessionDiagnostic, i: number): ProblemNode {
	return { kind: 'problem', id: `problem:${diagnostic.line}:${i}`, label: `line ${diagnostic.line}: ${diagnostic.message}`, severity: diagnostic.severity, line: diagnostic.line };
}

function renderRow(diagnostic: ReleaseDiagnostic, i: number): ProblemNode {
	return {
		kind: 'problem',
		id: `problem:render:${diagnostic.kind}:${i}`,
		label: diagnostic.detail,
		description: diagnostic.kind,
		severity: 'warning',
		line: diagnostic.kind === 'orphan-sweep' ? undefined : diagnostic.line,
	};
}

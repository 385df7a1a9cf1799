/**
 * The "Pruned Calls" view as plain data for one session: problems found while reading it, the
 * batches still pending, pi-condense's summaries with the tool calls they pruned (`tN`), compressed
 * chains (`bN`) with their refs, dedup aliases pointing at their originals, and spilled outputs.
 * Ids are stable across refreshes (entry ids, refs, occurrence keys), so expansion survives. Pure.
 */
import {
	formatCompactCount, type DefectWarning, type PendingBatch, type PrunedSummaryNode, type PrunedToolNode, type ReleaseDiagnostic,
} from '../condense';
import type { DiagnosticSeverity, SessionDiagnostic } from '../session/types';
import type { SessionInsight } from './sessionInsight';
import { outputHead, toolCallLabel } from './toolCallText';
import { mapSteps, paced, runSteps, type Steps } from '../steps';

interface NodeBase {
	readonly id: string;
	readonly label: string;
	readonly description?: string;
}

export type GroupKind = 'problems' | 'pending' | 'chains' | 'aliases' | 'spilled';

export interface GroupNode extends NodeBase {
	readonly kind: 'group';
	readonly group: GroupKind;
	readonly children: readonly PrunedNode[];
}

export interface SummaryNode extends NodeBase {
	readonly kind: 'summary';
	readonly entryId: string;
	readonly text: string;
	readonly children: readonly ToolNode[];
}

export interface ToolNode extends NodeBase {
	readonly kind: 'tool';
	/** `tN`, or undefined for a record without one. */
	readonly ref: string | undefined;
	readonly toolCallId: string;
	readonly toolName: string;
	readonly args: Readonly<Record<string, unknown>>;
	readonly isError: boolean;
	readonly outputHead: string;
	readonly spilled: boolean;
}

export interface ChainNode extends NodeBase {
	readonly kind: 'chain';
	readonly blockId: string;
	readonly bodyText: string;
	readonly children: readonly ChainRefNode[];
}

export interface ChainRefNode extends NodeBase {
	readonly kind: 'chainRef';
	readonly ref: string;
	/** Id of the summarized call behind the ref, when the index has it. */
	readonly toolCallId: string | undefined;
}

export interface AliasNode extends NodeBase {
	readonly kind: 'alias';
	readonly toolCallId: string;
	readonly originalToolCallId: string;
	/** `tN` of the original, when it has one. */
	readonly originalRef: string | undefined;
}

export interface SpilledNode extends NodeBase {
	readonly kind: 'spilled';
	readonly toolCallId: string;
	readonly outputHead: string;
}

export interface PendingBatchNode extends NodeBase {
	readonly kind: 'pendingBatch';
	readonly children: readonly PendingCallNode[];
}

export interface PendingCallNode extends NodeBase {
	readonly kind: 'pendingCall';
	readonly toolCallId: string;
	readonly outputHead: string;
}

export interface ProblemNode extends NodeBase {
	readonly kind: 'problem';
	readonly severity: DiagnosticSeverity;
	/** 1-based line in the session file, when the problem has one. */
	readonly line: number | undefined;
}

export type PrunedNode = GroupNode | SummaryNode | ToolNode | ChainNode | ChainRefNode | AliasNode | SpilledNode | PendingBatchNode | PendingCallNode | ProblemNode;

export function buildPrunedCalls(insight: SessionInsight, formatTime: (epochMs: number) => string): PrunedNode[] {
	return runSteps(buildPrunedCallsSteps(insight, formatTime));
}

/** The same, yielding between pieces of work (see `src/engine/steps.ts`): a session may hold tens of thousands of rows. */
export function* buildPrunedCallsSteps(insight: SessionInsight, formatTime: (epochMs: number) => string): Steps<PrunedNode[]> {
	const roots: PrunedNode[] = [];
	const preview = insight.config.enabled ? insight.preview : undefined;
	const problems = problemNodes(insight.model.diagnostics, insight.state.diagnostics, preview?.diagnostics ?? [], preview?.warnings ?? []);
	if (problems.length > 0) {
		roots.push({ kind: 'group', group: 'problems', id: 'problems', label: 'Problems', description: `${problems.length}`, children: problems });
	}
	const pending = insight.pending;
	if (pending.length > 0) {
		const chars = pending.reduce((sum, batch) => sum + batch.rawChars, 0);
		roots.push({
			kind: 'group', group: 'pending', id: 'pending', label: 'Pending',
			description: `${pending.length} batch${pending.length === 1 ? '' : 'es'} · ${formatCompactCount(chars)} chars`,
			children: yield* mapSteps(pending, pendingBatchNode),
		});
	}
	const summaries = insight.prunedTree;
	for (let i = 0; i < summaries.length; i++) {
		if (paced(i)) {
			yield;
		}
		const summary = summaries[i] as PrunedSummaryNode;
		roots.push({
			kind: 'summary',
			id: `summary:${summary.entryId}`,
			label: summary.header,
			description: summary.timestamp ? formatTime(summary.timestamp) : undefined,
			entryId: summary.entryId,
			text: summary.text,
			children: summary.children.map((child) => toolNode(child, summary.entryId)),
		});
	}
	const chains = yield* chainNodes(insight);
	if (chains.length > 0) {
		roots.push({ kind: 'group', group: 'chains', id: 'chains', label: 'Compressed chains', description: `${chains.length}`, children: chains });
	}
	const aliases = yield* aliasNodes(insight);
	if (aliases.length > 0) {
		roots.push({ kind: 'group', group: 'aliases', id: 'aliases', label: 'Dedup aliases', description: `${aliases.length}`, children: aliases });
	}
	const spilled = yield* mapSteps(insight.state.spilled, (occurrence): SpilledNode => {
		const record = occurrence.record;
		return {
			kind: 'spilled',
			id: `spilled:${occurrence.key}`,
			label: toolCallLabel(record.toolName, record.args, record.spillBytes ?? 0, 'bytes', record.isError),
			description: record.toolCallId,
			toolCallId: record.toolCallId,
			outputHead: outputHead(record.resultPreview ?? ''),
		};
	});
	if (spilled.length > 0) {
		roots.push({ kind: 'group', group: 'spilled', id: 'spilled', label: 'Spilled outputs', description: `${spilled.length}`, children: spilled });
	}
	return roots;
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

function pendingBatchNode(batch: PendingBatch): PendingBatchNode {
	const count = batch.toolCalls.length;
	return {
		kind: 'pendingBatch',
		id: `pending:${batch.turnIndex}:${batch.toolCalls[0]?.key ?? ''}`,
		label: `Turn ${batch.turnIndex} · ${count} tool call${count === 1 ? '' : 's'}`,
		description: `${formatCompactCount(batch.rawChars)} chars`,
		children: batch.toolCalls.map((call): PendingCallNode => ({
			kind: 'pendingCall',
			id: `pendingCall:${call.key}`,
			label: toolCallLabel(call.toolName, call.args, call.resultText.length, 'chars', call.isError),
			toolCallId: call.toolCallId,
			outputHead: outputHead(call.resultText),
		})),
	};
}

function chainNodes(insight: SessionInsight): Steps<ChainNode[]> {
	return mapSteps(insight.state.chains, ({ entry, bodyText }): ChainNode => {
		const dropped = entry.droppedToolCallIds.length;
		return {
			kind: 'chain',
			id: `chain:${entry.blockId}`,
			blockId: entry.blockId,
			label: entry.blockId,
			description: `compressed chain · ${dropped} tool call${dropped === 1 ? '' : 's'} dropped · ${entry.toolRefs.length} ref${entry.toolRefs.length === 1 ? '' : 's'}`,
			bodyText,
			children: entry.toolRefs.map((ref): ChainRefNode => {
				const record = insight.state.refs.get(ref)?.record;
				return {
					kind: 'chainRef',
					id: `chainRef:${entry.blockId}:${ref}`,
					ref,
					toolCallId: record?.toolCallId,
					label: ref,
					description: record ? toolCallLabel(record.toolName, record.args, record.resultText.length || record.spillBytes || 0, record.resultText ? 'chars' : 'bytes', record.isError) : 'not in the index',
				};
			}),
		};
	});
}

function aliasNodes(insight: SessionInsight): Steps<AliasNode[]> {
	return mapSteps([...insight.state.aliases.values()], (alias): AliasNode => {
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
	});
}

function problemNodes(
	session: readonly SessionDiagnostic[],
	state: readonly SessionDiagnostic[],
	render: readonly ReleaseDiagnostic[],
	warnings: readonly DefectWarning[],
): ProblemNode[] {
	const fromLines = [...session, ...state].map((diagnostic, i): ProblemNode => ({
		kind: 'problem',
		id: `problem:${diagnostic.line}:${i}`,
		label: `line ${diagnostic.line}: ${diagnostic.message}`,
		severity: diagnostic.severity,
		line: diagnostic.line,
	}));
	// What the release reports about itself (2.6.0+), as it words it.
	const fromRender = render.map((diagnostic, i): ProblemNode => ({
		kind: 'problem',
		id: `problem:render:${diagnostic.kind}:${i}`,
		label: diagnostic.detail,
		description: diagnostic.kind,
		severity: 'warning',
		line: diagnostic.kind === 'orphan-sweep' ? undefined : diagnostic.line,
	}));
	// Defects of the release that change what is sent: what happens and which release fixes it.
	const fromDefects = warnings.map((warning, i): ProblemNode => ({
		kind: 'problem',
		id: `problem:defect:${warning.kind}:${i}`,
		label: warning.message,
		description: `pi-condense ${warning.release} defect${warning.fixedIn ? ` (fixed in ${warning.fixedIn})` : ''}`,
		severity: 'warning',
		line: undefined,
	}));
	return [...fromDefects, ...fromLines, ...fromRender];
}

/**
 * The "Pruned Calls" view as plain data for one session: problems found while reading it, the
 * batches still pending, pi-condense's summaries with the tool calls they pruned (`tN`), compressed
 * chains (`bN`) with their refs, dedup aliases pointing at their originals, and spilled outputs.
 * Ids are stable across refreshes (entry ids, refs, occurrence keys), so expansion survives.
 * Only the top level is built up front: a row's children are built when it is expanded (a large
 * session holds tens of thousands of calls, whose labels alone were a third of the file's size). Pure.
 */
import {
	formatCompactCount, type AliasOccurrence, type ChainInfo, type DefectWarning, type PendingBatch, type PrunedSummaryNode, type PrunedToolNode, type RecordOccurrence, type ReleaseDiagnostic,
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

/** A row with rows under it, built when it is expanded. */
export interface Expandable<C extends PrunedNode> {
	readonly childCount: number;
	/** Builds the rows under this one, in order. */
	readonly children: () => Steps<readonly C[]>;
	/**
	 * True when one of those rows is what `ref` names: a summarized call (its `tN` or tool-call
	 * id), a chain (`bN`), a dedup alias or a spilled output (its tool-call id).
	 */
	readonly holds: (ref: string) => boolean;
}

export type GroupKind = 'problems' | 'pending' | 'chains' | 'aliases' | 'spilled';

export interface GroupNode extends NodeBase, Expandable<PrunedNode> {
	readonly kind: 'group';
	readonly group: GroupKind;
}

export interface SummaryNode extends NodeBase, Expandable<ToolNode> {
	readonly kind: 'summary';
	readonly entryId: string;
	readonly text: string;
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

export interface ChainNode extends NodeBase, Expandable<ChainRefNode> {
	readonly kind: 'chain';
	readonly blockId: string;
	readonly bodyText: string;
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

export interface PendingBatchNode extends NodeBase, Expandable<PendingCallNode> {
	readonly kind: 'pendingBatch';
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

/** The top-level rows, yielding between pieces of work (see `src/engine/steps.ts`): a session may hold thousands of summaries. */
export function* buildPrunedCallsSteps(insight: SessionInsight, formatTime: (epochMs: number) => string): Steps<PrunedNode[]> {
	const roots: PrunedNode[] = [];
	const preview = insight.config.enabled ? insight.preview : undefined;
	const problems = problemSources(insight.model.diagnostics, insight.state.diagnostics, preview?.diagnostics ?? [], preview?.warnings ?? []);
	if (problems.count > 0) {
		roots.push(group('problems', 'Problems', `${problems.count}`, problems.count, () => problemNodesSteps(problems)));
	}
	const pending = insight.pending;
	if (pending.length > 0) {
		const chars = pending.reduce((sum, batch) => sum + batch.rawChars, 0);
		const description = `${pending.length} batch${pending.length === 1 ? '' : 'es'} · ${formatCompactCount(chars)} chars`;
		roots.push(group('pending', 'Pending', description, pending.length, () => mapSteps(pending, pendingBatchNode)));
	}
	const summaries = insight.prunedTree;
	for (let i = 0; i < summaries.length; i++) {
		if (paced(i)) {
			yield;
		}
		roots.push(summaryNode(summaries[i] as PrunedSummaryNode, formatTime));
	}
	const chains = insight.state.chains;
	if (chains.length > 0) {
		roots.push(group('chains', 'Compressed chains', `${chains.length}`, chains.length, () => mapSteps(chains, (chain) => chainNode(chain, insight)),
			(ref) => chains.some((chain) => chain.entry.blockId === ref)));
	}
	const aliases = [...insight.state.aliases.values()];
	if (aliases.length > 0) {
		roots.push(group('aliases', 'Dedup aliases', `${aliases.length}`, aliases.length, () => mapSteps(aliases, aliasNode),
			(ref) => aliases.some((alias) => alias.toolCallId === ref)));
	}
	const spilled = insight.state.spilled;
	if (spilled.length > 0) {
		roots.push(group('spilled', 'Spilled outputs', `${spilled.length}`, spilled.length, () => mapSteps(spilled, spilledNode),
			(ref) => spilled.some((occurrence) => occurrence.record.toolCallId === ref)));
	}
	return roots;
}

const holdsNothing = (): boolean => false;

function group(kind: GroupKind, label: string, description: string, childCount: number, children: () => Steps<readonly PrunedNode[]>, holds: (ref: string) => boolean = holdsNothing): GroupNode {
	return { kind: 'group', group: kind, id: kind, label, description, childCount, children, holds };
}

function summaryNode(summary: PrunedSummaryNode, formatTime: (epochMs: number) => string): SummaryNode {
	const calls = summary.children;
	return {
		kind: 'summary',
		id: `summary:${summary.entryId}`,
		label: summary.header,
		description: summary.timestamp ? formatTime(summary.timestamp) : undefined,
		entryId: summary.entryId,
		text: summary.text,
		childCount: calls.length,
		children: () => mapSteps(calls, (child) => toolNode(child, summary.entryId)),
		holds: (ref) => calls.some((child) => child.shortRef === ref || child.record.toolCallId === ref),
	};
}

function spilledNode(occurrence: RecordOccurrence): SpilledNode {
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
	const calls = batch.toolCalls;
	const count = calls.length;
	return {
		kind: 'pendingBatch',
		id: `pending:${batch.turnIndex}:${calls[0]?.key ?? ''}`,
		label: `Turn ${batch.turnIndex} · ${count} tool call${count === 1 ? '' : 's'}`,
		description: `${formatCompactCount(batch.rawChars)} chars`,
		childCount: count,
		children: () => mapSteps(calls, (call): PendingCallNode => ({
			kind: 'pendingCall',
			id: `pendingCall:${call.key}`,
			label: toolCallLabel(call.toolName, call.args, call.resultText.length, 'chars', call.isError),
			toolCallId: call.toolCallId,
			outputHead: outputHead(call.resultText),
		})),
		holds: holdsNothing,
	};
}

function chainNode({ entry, bodyText }: ChainInfo, insight: SessionInsight): ChainNode {
	const dropped = entry.droppedToolCallIds.length;
	const refs = entry.toolRefs;
	return {
		kind: 'chain',
		id: `chain:${entry.blockId}`,
		blockId: entry.blockId,
		label: entry.blockId,
		description: `compressed chain · ${dropped} tool call${dropped === 1 ? '' : 's'} dropped · ${refs.length} ref${refs.length === 1 ? '' : 's'}`,
		bodyText,
		childCount: refs.length,
		children: () => mapSteps(refs, (ref): ChainRefNode => {
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
		holds: holdsNothing,
	};
}

function aliasNode(alias: AliasOccurrence): AliasNode {
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

interface ProblemSources {
	readonly lines: readonly SessionDiagnostic[];
	readonly render: readonly ReleaseDiagnostic[];
	readonly warnings: readonly DefectWarning[];
	readonly count: number;
}

function problemSources(
	session: readonly SessionDiagnostic[],
	state: readonly SessionDiagnostic[],
	render: readonly ReleaseDiagnostic[],
	warnings: readonly DefectWarning[],
): ProblemSources {
	const lines = state.length === 0 ? session : [...session, ...state];
	return { lines, render, warnings, count: lines.length + render.length + warnings.length };
}

function* problemNodesSteps({ lines, render, warnings }: ProblemSources): Steps<ProblemNode[]> {
	// A damaged file may report a problem on every line.
	const fromLines = yield* mapSteps(lines, (diagnostic, i): ProblemNode => ({
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

/**
 * The rows of the "Pruned Calls" view as plain data (see `prunedCallsModel.ts`). Pure.
 */
import type { DiagnosticSeverity } from '../session/types';
import type { Steps } from '../steps';

interface NodeBase {
	readonly id: string;
	readonly label: string;
	readonly description?: string;
}

/** A row with rows under it, built when it is expanded. */
export interface Expandable {
	readonly childCount: number;
	/** Builds the rows under this one, in order. */
	readonly children: () => Steps<readonly PrunedNode[]>;
	/**
	 * True when what `ref` names is among those rows or below them: a summarized call (its `tN` or
	 * tool-call id), a chain (`bN`), a dedup alias or a spilled output (its tool-call id).
	 */
	readonly holds: (ref: string) => boolean;
}

export type GroupKind = 'problems' | 'pending' | 'chains' | 'aliases' | 'spilled' | 'edits';

export interface GroupNode extends NodeBase, Expandable {
	readonly kind: 'group';
	readonly group: GroupKind;
}

/** A stretch of a long list of rows ("Batches 501–1000"), so that no row has more than `TREE_PAGE_ROWS` children. */
export interface RangeNode extends NodeBase, Expandable {
	readonly kind: 'range';
}

export interface SummaryNode extends NodeBase, Expandable {
	readonly kind: 'summary';
	readonly entryId: string;
	readonly text: string;
	/** pi-condense's `/pruner tree` root: `[pruner] Turn N summary (K tools · X chars · original Y) · <time>`. */
	readonly header: string;
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

export interface ChainNode extends NodeBase, Expandable {
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

export interface PendingBatchNode extends NodeBase, Expandable {
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

/** Pi 1.x: an entry a `context_edit` left out of the context or sends with other content. */
export interface ContextEditNode extends NodeBase {
	readonly kind: 'contextEdit';
	readonly omitted: boolean;
	/** What the entry says (bounded). */
	readonly entryText: string;
	/** What Pi sends instead (bounded); undefined when it leaves the entry out. */
	readonly sentText: string | undefined;
	/** 1-based line of the entry in the session file. */
	readonly line: number | undefined;
}

export type PrunedNode = GroupNode | RangeNode | SummaryNode | ToolNode | ChainNode | ChainRefNode | AliasNode | SpilledNode | PendingBatchNode | PendingCallNode | ProblemNode | ContextEditNode;

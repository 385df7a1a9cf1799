/**
 * The node objects of the "Pruned Calls" view: each wraps the plain data of one row and knows its
 * parent (for `reveal`). They are kept by id across refreshes and their data is updated in place;
 * `sync` reports which nodes changed so only those are refreshed. A node's children exist only
 * once it has been expanded (or revealed through): until then only their count is known.
 */
import type { PrunedNode } from '../../engine/views';
import { paced, type Steps } from '../../engine/steps';

export class PrunedTreeNode {
	/** Undefined until the row is expanded. */
	children: PrunedTreeNode[] | undefined;

	constructor(readonly id: string, public data: PrunedNode, public parent: PrunedTreeNode | undefined, readonly sessionPath: string) {}

	/** The id to recover for this row (`tN`, a raw tool-call id, an alias id), if it stands for one output. */
	get recoveryId(): string | undefined {
		const data = this.data;
		switch (data.kind) {
			case 'tool':
				return data.ref ?? data.toolCallId;
			case 'chainRef':
				return data.ref;
			case 'alias':
			case 'spilled':
				return data.toolCallId;
			default:
				return undefined;
		}
	}
}

export interface SyncResult {
	readonly roots: PrunedTreeNode[];
	/** True when the list of roots changed: refresh from the top. */
	readonly rootsChanged: boolean;
	/** Nodes whose own row or list of children changed. */
	readonly changed: PrunedTreeNode[];
}

/**
 * Updates the kept nodes to `data`, creating and dropping nodes as needed; yields between pieces
 * of work (see `src/engine/steps.ts`). The caller drops the result if it was superseded: `byId`
 * then holds a mix of old and new nodes, and the next run repairs it (ids are stable).
 */
export function* syncNodesSteps(previous: readonly PrunedTreeNode[], data: readonly PrunedNode[], sessionPath: string, byId: Map<string, PrunedTreeNode>): Steps<SyncResult> {
	const changed: PrunedTreeNode[] = [];
	const seen = new Set<string>();
	const roots = yield* syncLevel(data, undefined, { sessionPath, byId, changed, seen, count: 0 });
	let count = 0;
	for (const id of byId.keys()) {
		if (paced(count++)) {
			yield;
		}
		if (!seen.has(id)) {
			byId.delete(id);
		}
	}
	const rootsChanged = previous.length !== roots.length || previous.some((node, i) => node !== roots[i]);
	return { roots, rootsChanged, changed: rootsChanged ? [] : changed };
}

interface SyncRun {
	readonly sessionPath: string;
	readonly byId: Map<string, PrunedTreeNode>;
	readonly changed: PrunedTreeNode[];
	readonly seen: Set<string>;
	/** Nodes visited so far, for pacing. */
	count: number;
}

/**
 * Builds the children of `node` from its data (when it is expanded), registering them in `byId`;
 * yields between pieces of work. Nodes already built (an earlier expansion) are reused.
 */
export function* expandSteps(node: PrunedTreeNode, byId: Map<string, PrunedTreeNode>): Steps<PrunedTreeNode[]> {
	const data = node.data;
	const childData = 'children' in data ? yield* data.children() : [];
	return yield* syncLevel(childData, node, { sessionPath: node.sessionPath, byId, changed: [], seen: new Set(), count: 0 });
}

function* syncLevel(data: readonly PrunedNode[], parent: PrunedTreeNode | undefined, run: SyncRun): Steps<PrunedTreeNode[]> {
	const { sessionPath, byId, changed, seen } = run;
	const nodes: PrunedTreeNode[] = [];
	for (const item of data) {
		if (paced(run.count++)) {
			yield;
		}
		const id = `${sessionPath}#${item.id}`;
		seen.add(id);
		let node = byId.get(id);
		const isNew = node === undefined;
		if (!node) {
			node = new PrunedTreeNode(id, item, parent, sessionPath);
			byId.set(id, node);
		}
		const before = isNew ? undefined : ownSignature(node.data, node.children);
		node.data = item;
		node.parent = parent;
		// Only rows that were expanded keep their children up to date; the others build them when expanded.
		if (node.children !== undefined) {
			const childData = 'children' in item ? yield* item.children() : [];
			node.children = yield* syncLevel(childData, node, run);
		}
		if (before !== undefined && before !== ownSignature(item, node.children)) {
			changed.push(node);
		}
		nodes.push(node);
	}
	return nodes;
}

/** What a row shows, plus which children it has (their count, until built): if this differs, the row is refreshed. */
function ownSignature(data: PrunedNode, children: readonly PrunedTreeNode[] | undefined): string {
	const childCount = 'childCount' in data ? data.childCount : 0;
	return JSON.stringify([data.label, data.description ?? '', 'outputHead' in data ? data.outputHead.length : 0, childCount, children?.map((child) => child.id) ?? null]);
}

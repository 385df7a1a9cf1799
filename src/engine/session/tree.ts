/**
 * The session as a tree of entries, like Pi's `getTree()`. Pure.
 *
 * Roots are entries whose `parentId` is null, points at themselves, or points at an entry that does
 * not exist (orphans). Children are ordered by timestamp. Pi's own walk loops forever on a
 * `parentId` cycle that no root reaches; here such a cycle is cut at its first entry in file order,
 * which becomes a root, and reported.
 */
import type { SessionModel, SessionTreeNode } from './model';
import type { SessionEntry } from './types';

interface MutableNode {
	readonly entry: SessionEntry;
	readonly children: MutableNode[];
	readonly label: string | undefined;
}

export interface SessionTree {
	readonly roots: readonly SessionTreeNode[];
	/** Entries that were only reachable through a `parentId` cycle, now shown as roots. */
	readonly cycleBreaks: readonly SessionEntry[];
}

export function getTree(model: SessionModel): SessionTree {
	const nodes = model.entries.map((entry): MutableNode => ({ entry, children: [], label: model.labelOf(entry.id) }));
	const nodeById = new Map<string, MutableNode>();
	for (const node of nodes) {
		nodeById.set(node.entry.id, node);
	}
	const roots: MutableNode[] = [];
	for (const node of nodes) {
		const parentId = node.entry.parentId;
		const parent = parentId === null || parentId === node.entry.id ? undefined : nodeById.get(parentId);
		(parent ? parent.children : roots).push(node);
	}
	const reached = new Set<MutableNode>();
	markReachable(roots, reached);
	const cycleBreaks: SessionEntry[] = [];
	for (const node of nodes) {
		if (!reached.has(node)) {
			detachFromParent(node, nodeById);
			roots.push(node);
			cycleBreaks.push(node.entry);
			markReachable([node], reached);
		}
	}
	for (const node of reached) {
		node.children.sort(byTimestamp);
	}
	return { roots, cycleBreaks };
}

function markReachable(start: readonly MutableNode[], reached: Set<MutableNode>): void {
	const stack = [...start];
	while (stack.length > 0) {
		const node = stack.pop() as MutableNode;
		if (!reached.has(node)) {
			reached.add(node);
			stack.push(...node.children);
		}
	}
}

function detachFromParent(node: MutableNode, nodeById: ReadonlyMap<string, MutableNode>): void {
	const parent = node.entry.parentId === null ? undefined : nodeById.get(node.entry.parentId);
	if (parent) {
		parent.children.splice(parent.children.indexOf(node), 1);
	}
}

function byTimestamp(a: MutableNode, b: MutableNode): number {
	return Date.parse(a.entry.timestamp) - Date.parse(b.entry.timestamp);
}

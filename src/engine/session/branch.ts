/**
 * Walking the `parentId` chain from a leaf to the root. Pure.
 */
import type { SessionModel } from './model';
import type { SessionEntry } from './types';
import { paced, type Steps } from '../steps';

/**
 * The entries from the root to `leafId` (default: the model's leaf), like Pi's
 * `sessionManager.getBranch()`, in steps. An unknown leaf falls back to the last entry, as in Pi's
 * `buildSessionContext`; `null` gives an empty branch. A `parentId` cycle (which would make Pi loop
 * forever) stops the walk before the first repeated entry.
 */
export function* getBranchSteps(model: SessionModel, leafId: string | null | undefined = model.leafId): Steps<readonly SessionEntry[]> {
	if (leafId === null) {
		return [];
	}
	const leaf = (leafId === undefined ? undefined : model.entryById(leafId)) ?? model.entries.at(-1);
	const reversed: SessionEntry[] = [];
	// A path can never be longer than the file; a longer walk means a cycle, which is rare enough to
	// pay for a second walk that remembers what it saw.
	const limit = model.entries.length;
	let current = leaf;
	while (current !== undefined) {
		if (reversed.length === limit) {
			return walkWithCycleGuard(model, leaf);
		}
		if (paced(reversed.length)) {
			yield;
		}
		reversed.push(current);
		current = current.parentId ? model.entryById(current.parentId) : undefined;
	}
	return reversed.reverse();
}

function walkWithCycleGuard(model: SessionModel, leaf: SessionEntry | undefined): SessionEntry[] {
	const reversed: SessionEntry[] = [];
	const seen = new Set<SessionEntry>();
	let current = leaf;
	while (current !== undefined && !seen.has(current)) {
		seen.add(current);
		reversed.push(current);
		current = current.parentId ? model.entryById(current.parentId) : undefined;
	}
	return reversed.reverse();
}

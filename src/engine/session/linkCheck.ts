/**
 * Checks of the `parentId` tree as entries are read, in file order. Pure.
 *
 * Pi makes every entry a child of one it wrote before, under a fresh id, so in a file Pi wrote each
 * `parentId` names an entry above it and no id repeats. A file edited by hand, cut and pasted or
 * merged can break both: a parent that is missing (Pi shows the entry as the root of a separate
 * tree), a parent further down (which can close a loop: Pi then hangs walking the branch), or a
 * repeated id (Pi's lookups see only the later entry, so a branch through the earlier one changes).
 * Each is a warning at the entry's line; a file with any warning is never written to.
 *
 * Only entries above the one checked are consulted, so a file read in steps gets exactly the
 * warnings of a cold read.
 */
import type { EntryIndex } from './entryIndex';
import type { SessionDiagnostic, SessionEntry } from './types';

export function checkLinks(
	entries: readonly SessionEntry[],
	entryLines: readonly number[],
	from: number,
	index: EntryIndex,
	diagnostics: SessionDiagnostic[],
	to = entries.length,
): void {
	for (let at = from; at < to; at++) {
		const entry = entries[at] as SessionEntry;
		const line = entryLines[at] as number;
		const earlier = index.positionOf(entry.id, at);
		if (earlier !== undefined) {
			diagnostics.push({
				severity: 'warning',
				line,
				message: `the id "${entry.id}" is already used by the entry on line ${entryLines[earlier]}; Pi finds only the later one by id, so branches through the earlier one are cut off`,
			});
		}
		const parentId = entry.parentId;
		if (parentId !== null && index.positionOf(parentId, at) === undefined) {
			const which = parentId === entry.id ? 'is the entry\'s own id' : 'does not name an entry above this line';
			diagnostics.push({
				severity: 'warning',
				line,
				message: `the parentId "${parentId}" ${which}; Pi shows this entry as the root of a separate tree (or, if an entry further down has that id, the two form a loop that hangs Pi)`,
			});
		}
	}
}

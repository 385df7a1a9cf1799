/**
 * Where entries we wrote stand after others appended to the session. Pure.
 *
 * Pi never re-reads a session while it runs: if it was attached after all, its next entry hangs
 * off its own in-memory leaf and ours drop off the active path (seen with a
 * real Pi left running while we wrote). Pi resumes from the last entry in file order, so "on the active path" is decided
 * from the model's leaf. Stranded entries are still in the file; the host can offer to re-apply.
 */
import { getBranchSteps, type SessionModel } from '../session';
import { paced, type Steps } from '../steps';

export type WrittenEntriesState =
	/** Our last entry is still the last entry in the file. */
	| { readonly kind: 'leaf' }
	/** Later entries continue from our last entry: it is on the active path. */
	| { readonly kind: 'continued'; readonly laterEntries: number }
	/** Later entries continue from elsewhere: our entries in `stranded` are on a side branch. */
	| {
		readonly kind: 'stranded';
		readonly laterEntries: number;
		readonly stranded: readonly string[];
		/** Our ids still on the active path (a prefix, if the later entries chained from the middle of our batch). */
		readonly stillOnPath: readonly string[];
		/** The first later entry that does not descend from our last entry. */
		readonly firstDivergingEntryId: string;
	}
	/** Some of our ids are not in the file any more (rewritten or truncated file). */
	| { readonly kind: 'missing'; readonly missing: readonly string[] };

/** Where `writtenIds` (our last write, in order) stand in `model`, in steps: the active path is walked. */
export function* checkWrittenEntriesSteps(model: SessionModel, writtenIds: readonly string[]): Steps<WrittenEntriesState> {
	const missing = writtenIds.filter((id) => model.entryById(id) === undefined);
	if (missing.length > 0) {
		return { kind: 'missing', missing };
	}
	const lastId = writtenIds.at(-1);
	if (lastId === undefined || model.leafId === lastId) {
		return { kind: 'leaf' };
	}
	const lastIndex = lastIndexOf(model, lastId);
	const laterEntries = model.entries.length - 1 - lastIndex;
	const onPath = new Set((yield* getBranchSteps(model)).map((entry) => entry.id));
	if (onPath.has(lastId)) {
		return { kind: 'continued', laterEntries };
	}
	const stillOnPath = writtenIds.filter((id) => onPath.has(id));
	return {
		kind: 'stranded',
		laterEntries,
		stranded: writtenIds.filter((id) => !onPath.has(id)),
		stillOnPath,
		firstDivergingEntryId: yield* firstDivergingSteps(model, lastIndex, lastId),
	};
}

/** The first entry after ours whose ancestry does not reach our last entry. */
function* firstDivergingSteps(model: SessionModel, lastIndex: number, lastId: string): Steps<string> {
	const descendants = new Set([lastId]);
	for (let at = lastIndex + 1; at < model.entries.length; at++) {
		if (paced(at)) {
			yield;
		}
		const entry = model.entries[at];
		if (entry === undefined) {
			break;
		}
		if (entry.parentId !== null && descendants.has(entry.parentId)) {
			descendants.add(entry.id);
		} else {
			return entry.id;
		}
	}
	return model.leafId ?? lastId;
}

function lastIndexOf(model: SessionModel, id: string): number {
	for (let at = model.entries.length - 1; at >= 0; at--) {
		if (model.entries[at]?.id === id) {
			return at;
		}
	}
	return -1;
}

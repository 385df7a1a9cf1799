/**
 * The branch as it will read once planned drafts are written: the drafts get stand-in envelopes
 * (ids that cannot clash with Pi's 8-hex ids) chained after the leaf. Planning later steps of a
 * flush on this branch (chains after the summaries) uses the very state builder the renderer
 * uses, so the plan sees exactly what a reader of the file will see. Pure.
 */
import type { SessionEntry } from '../session/types';
import type { EntryDraft } from '../write/entryEnvelope';
import { paced, type Steps } from '../steps';

/** Yields between pieces of work (see `src/engine/steps.ts`): a first flush plans tens of thousands of entries. */
export function* withPlannedEntriesSteps(branch: readonly SessionEntry[], drafts: readonly EntryDraft[], atMs: number): Steps<readonly SessionEntry[]> {
	if (drafts.length === 0) {
		return branch;
	}
	const timestamp = new Date(atMs).toISOString();
	const entries = branch.slice();
	yield;
	let parentId = branch.at(-1)?.id ?? null;
	for (let i = 0; i < drafts.length; i++) {
		if (paced(i)) {
			yield;
		}
		const draft = drafts[i] as EntryDraft;
		const id = `~planned-${branch.length + i}`;
		entries.push(draft.type === 'custom'
			? { type: 'custom', customType: draft.customType, data: draft.data, id, parentId, timestamp }
			: { type: 'custom_message', customType: draft.customType, content: draft.content, display: draft.display, details: draft.details, id, parentId, timestamp });
		parentId = id;
	}
	return entries;
}

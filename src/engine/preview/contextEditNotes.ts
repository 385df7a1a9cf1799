/**
 * What the preview says about Pi 1.x's `context_edit`s: for each entry an edit changed, what the entry
 * says and whether Pi leaves it out or sends other content, as bounded plain texts. Pure.
 */
import type { AppliedEdit } from '../session/contextEdits';
import type { ContextMessage } from '../session/types';
import { blockText, messageBlocks } from './messageBlocks';
import { bounded } from '../../base/boundedText';
import type { ContextEditNote, EditedOrigin } from './types';

/** Characters of an entry's text a note or a row keeps. */
const ENTRY_TEXT_CHARS = 600;

/** Every edit that changed the context, omissions first (as `appliedEditsSteps` lists them). */
export function contextEditNotes(edits: readonly AppliedEdit[]): ContextEditNote[] {
	return edits.map((applied) => ({
		editId: applied.edit.id,
		entryId: applied.target.id,
		kind: applied.at === undefined ? 'omitted' : 'replaced',
		role: applied.raw[0]?.role ?? applied.target.type,
		entryText: entryText(applied.raw),
	}));
}

/** A replaced message's row: the edit and what the entry itself says. */
export function editedOrigin(applied: AppliedEdit): EditedOrigin {
	return { editId: applied.edit.id, entryText: entryText(applied.raw) };
}

/** The entry's message(s) as text, cut for the page. */
function entryText(messages: readonly ContextMessage[]): string {
	const text = messages.flatMap((message) => messageBlocks(message, ENTRY_TEXT_CHARS).map((block) => block.kind === 'toolCall' ? `${block.name}(${blockText(block)})` : blockText(block))).join('\n');
	return bounded(text, ENTRY_TEXT_CHARS).text;
}

/**
 * The notes above the messages about Pi 1.x's context edits: the entries Pi leaves out of the context
 * (a `context_edit` omitted them), each with what the entry says; the messages Pi sends with replaced
 * content carry their own note in their row. Session text never reaches markup: everything is set as text.
 */
import type { PageSnapshot } from '../src/shared/protocol';
import { el, figure, icon } from './dom';

export function editNoteRows(snapshot: PageSnapshot): HTMLElement[] {
	const omitted = snapshot.contextEdits.filter((note) => note.kind === 'omitted');
	const replaced = snapshot.contextEdits.length - omitted.length;
	if (snapshot.contextEdits.length === 0) {
		return [];
	}
	const heading = el('div', { className: 'edit-heading' }, [
		icon('edit'),
		el('span', { text: ' Pi edited this context: ' }),
		figure('edits-omitted', String(omitted.length), omitted.length),
		el('span', { text: ` message${omitted.length === 1 ? '' : 's'} left out, ` }),
		figure('edits-replaced', String(replaced), replaced),
		el('span', { text: ' sent with replaced content (marked "edited"). The session entries are unchanged.' }),
	]);
	return [
		heading,
		...omitted.map((note) => el('details', { className: 'edit-note', data: { entry: note.entryId } }, [
			el('summary', { text: `Left out: ${note.role} (entry ${note.entryId}, context_edit ${note.editId})` }),
			el('pre', { className: 'text', text: note.entryText }),
		])),
	];
}

/**
 * The warning rows above the messages: defects of the user's pi-condense release that change what
 * is sent (the rows show the context as sent), each saying what happens, what the provider does and
 * which release fixes it. Session text never reaches markup: everything is set as text.
 */
import type { PageSnapshot } from '../src/shared/protocol';
import { el, figure, icon } from './dom';

export function warningRows(snapshot: PageSnapshot): HTMLElement[] {
	const { warnings } = snapshot;
	if (warnings.length === 0) {
		return [];
	}
	const heading = el('div', { className: 'warning-heading' }, [
		icon('warning'),
		el('span', { text: ' pi-condense ' }),
		el('span', { text: snapshot.release }),
		el('span', { text: ' sends this context with ' }),
		figure('warnings', String(warnings.length), warnings.length),
		el('span', { text: warnings.length === 1 ? ' known defect:' : ' known defects:' }),
	]);
	return [
		heading,
		...warnings.map((warning) => el('div', { className: 'warning-row', data: { warning: warning.kind } }, [
			el('span', { className: 'warning-text', text: warning.message }),
		])),
	];
}

/**
 * What a click on a row's button does: show the full message or collapse it, switch between the
 * formatted and the exact text, jump to its counterpart in the other view, open a stub's output.
 */
import type { PreviewRow, ViewName } from '../src/shared/protocol';
import type { Expansions } from './expansions';
import { clickedRowAction } from './rowElement';

export interface RowActionDeps {
	readonly row: (index: number) => PreviewRow | undefined;
	readonly view: () => ViewName;
	readonly expansions: Expansions;
	/** Rebuilds the rows on screen. */
	readonly refresh: () => void;
	/** A row was collapsed: the page saves its state and reports. */
	readonly collapsed: () => void;
	readonly showCounterpart: (index: number) => void;
	readonly openRef: (ref: string) => void;
}

export function rowAction(event: MouseEvent, deps: RowActionDeps): void {
	const clicked = clickedRowAction(event);
	const row = clicked && deps.row(clicked.index);
	if (!clicked || !row) {
		return;
	}
	const view = deps.view();
	switch (clicked.action) {
		case 'expand':
			deps.expansions.request(view, row.key);
			return;
		case 'collapse':
			deps.expansions.collapse(view, row.key);
			deps.refresh();
			deps.collapsed();
			return;
		case 'raw':
			deps.expansions.toggleRaw(row.key);
			deps.refresh();
			return;
		case 'counterpart':
			if (row.counterpart !== undefined) {
				deps.showCounterpart(row.counterpart);
			}
			return;
		case 'open-ref':
			if (clicked.ref) {
				deps.openRef(clicked.ref);
			}
			return;
		default:
			return;
	}
}

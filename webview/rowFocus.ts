/**
 * Keyboard and screen-reader use of the message list: one tab stop for the whole list (a roving
 * focus: the active message is the only row with `tabindex="0"`), Up and Down to the next message,
 * Home, End, Page Up and Page Down on the first press (the list is virtualized: the page scrolls to
 * the row, renders it, then focuses it), Right into a message's refs and buttons (none of which is
 * a tab stop of its own), Left or Escape back to the message. Each row tells its position
 * (`aria-posinset` of `aria-setsize`), since only a few are in the DOM.
 */
import type { RowList } from './rowList';

const INNER = 'a[href], button, summary, .ref, [data-action], vscode-button';

export class RowFocus {
	private active = 0;
	/** The keyboard is in the list: a row re-created by a render gets the focus back. */
	private inside = false;
	private pending: number | undefined;

	constructor(private readonly scroller: HTMLElement, private readonly list: () => RowList, private readonly count: () => number) {
		scroller.addEventListener('keydown', (event) => this.onKey(event));
		scroller.addEventListener('focus', () => this.focus(this.active));
		scroller.addEventListener('focusin', (event) => {
			this.inside = true;
			const row = rowOf(event.target);
			if (row && event.target === row) {
				this.setActive(Number(row.dataset.index));
			}
		});
		scroller.addEventListener('focusout', (event) => {
			this.inside = event.relatedTarget instanceof Node && scroller.contains(event.relatedTarget);
		});
	}

	/** A row was rendered: it is the tab stop when it is the active one; what is inside it is not a tab stop. */
	decorated(row: HTMLElement, index: number): HTMLElement {
		this.decorate(row, index);
		return row;
	}

	private decorate(row: HTMLElement, index: number): void {
		row.tabIndex = index === this.active ? 0 : -1;
		row.setAttribute('aria-posinset', String(index + 1));
		row.setAttribute('aria-setsize', String(this.count()));
		for (const inner of row.querySelectorAll<HTMLElement>(INNER)) {
			inner.tabIndex = -1;
		}
	}

	/** After each render: the list is a tab stop itself only while the active row is not in the DOM; focus comes back to a re-created row. */
	afterRender(): void {
		const row = this.list().elementAt(this.active);
		this.scroller.tabIndex = row ? -1 : 0;
		if (this.pending !== undefined && !this.hasKeyboard()) {
			// The keyboard went elsewhere before the row was drawn (the Command Palette, a quick pick, the page's
			// search): a late focus would pull it back, and VS Code closes a quick pick that loses the focus.
			this.pending = undefined;
		}
		const wanted = this.pending ?? (this.inside && !this.scroller.contains(document.activeElement) ? this.active : undefined);
		if (wanted !== undefined) {
			const target = this.list().elementAt(wanted);
			if (target) {
				this.pending = undefined;
				target.focus({ preventScroll: true });
			}
		}
	}

	/** Whether the keyboard is still the list's: in this page, on the list or nowhere in particular (a row re-created). */
	private hasKeyboard(): boolean {
		const active = document.activeElement;
		return document.hasFocus() && (active === null || active === document.body || this.scroller.contains(active));
	}

	/** A new snapshot or view: the first row (or the one kept) is the active one. */
	reset(index = 0): void {
		this.active = Math.max(0, Math.min(index, this.count() - 1));
	}

	private onKey(event: KeyboardEvent): void {
		const row = rowOf(event.target);
		if (!row) {
			return;
		}
		const inner = event.target !== row && event.target instanceof HTMLElement ? event.target : undefined;
		if (inner) {
			this.onInnerKey(event, row, inner);
			return;
		}
		const index = Number(row.dataset.index);
		const last = this.count() - 1;
		const to = this.target(event.key, index, last);
		if (to !== undefined) {
			event.preventDefault();
			this.focus(Math.max(0, Math.min(last, to)));
		} else if (event.key === 'ArrowRight') {
			const first = focusables(row)[0];
			if (first) {
				event.preventDefault();
				first.focus();
			}
		}
	}

	/**
	 * Where a key moves the focus from row `index`. Page Down goes to the last row wholly on screen,
	 * or a screen further when it is there already (a listbox's rule); Page Up the same upwards.
	 */
	private target(key: string, index: number, last: number): number | undefined {
		const page = (): { first: number; last: number } => this.list().wholeRows();
		switch (key) {
			case 'ArrowDown': return index + 1;
			case 'ArrowUp': return index - 1;
			case 'Home': return 0;
			case 'End': return last;
			case 'PageDown': {
				const shown = page();
				return index < shown.last ? shown.last : index + Math.max(1, shown.last - shown.first);
			}
			case 'PageUp': {
				const shown = page();
				return index > shown.first ? shown.first : index - Math.max(1, shown.last - shown.first);
			}
			default: return undefined;
		}
	}

	private onInnerKey(event: KeyboardEvent, row: HTMLElement, inner: HTMLElement): void {
		const all = focusables(row);
		const at = all.indexOf(inner);
		if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
			event.preventDefault();
			const next = all[at + (event.key === 'ArrowRight' ? 1 : -1)];
			(next ?? (event.key === 'ArrowLeft' ? row : inner)).focus();
		} else if (event.key === 'Escape') {
			event.preventDefault();
			row.focus();
		}
	}

	/** Moves the active row there, scrolls it into view and focuses it once it is rendered. */
	private focus(index: number): void {
		if (this.count() === 0) {
			return;
		}
		this.setActive(index);
		this.pending = this.active;
		this.list().ensureVisible(this.active);
		this.afterRender();
	}

	private setActive(index: number): void {
		if (index === this.active || Number.isNaN(index)) {
			return;
		}
		this.list().elementAt(this.active)?.setAttribute('tabindex', '-1');
		this.active = index;
		this.list().elementAt(index)?.setAttribute('tabindex', '0');
	}
}

function rowOf(target: EventTarget | null): HTMLElement | undefined {
	return target instanceof Element ? target.closest<HTMLElement>('.row') ?? undefined : undefined;
}

/** A row's refs and buttons, in document order, that are shown. */
function focusables(row: HTMLElement): HTMLElement[] {
	return [...row.querySelectorAll<HTMLElement>(INNER)].filter((node) => node.getClientRects().length > 0);
}

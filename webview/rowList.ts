/**
 * The virtualized message list (@tanstack/virtual-core): only the rows on screen, plus a small
 * overscan, are in the DOM, each measured once rendered. The rows come from the page's row store,
 * which holds windows of them: a row not held yet is a placeholder of a fixed height until it
 * arrives, and after each render the list says which rows are on screen (the page asks the host
 * for those it lacks). Row keys are stable across live updates, so measured sizes and the scroll
 * anchor survive a refresh.
 */
import { Virtualizer, elementScroll, measureElement, observeElementOffset, observeElementRect } from '@tanstack/virtual-core';
import type { PreviewRow } from '../src/shared/protocol';
import { el } from './dom';
import type { RowStore } from './rowStore';

/** The row at the top of the viewport (its key when held) and how far it is scrolled past. */
export interface ListPosition {
	readonly index: number;
	readonly key: string | undefined;
	readonly offset: number;
}

const ROW_HEADER_PX = 28;
const LINE_PX = 18;
/** A row not held yet: a header and a few lines, about what most rows take. */
const PLACEHOLDER_PX = ROW_HEADER_PX + 12 + 4 * LINE_PX;

export class RowList {
	private readonly elements = new Map<string, HTMLElement>();
	private readonly virtualizer: Virtualizer<HTMLElement, HTMLElement>;
	private frame = 0;
	readonly dispose: () => void;

	constructor(
		private readonly scroller: HTMLElement,
		private readonly inner: HTMLElement,
		private readonly store: RowStore,
		private readonly renderRow: (row: PreviewRow, index: number) => HTMLElement,
		private readonly onRender: (first: number, last: number) => void,
	) {
		this.virtualizer = new Virtualizer<HTMLElement, HTMLElement>({
			count: 0,
			getScrollElement: () => this.scroller,
			estimateSize: (index) => estimateHeight(this.store.row(index)),
			getItemKey: (index) => this.keyOf(index),
			overscan: 4,
			observeElementRect,
			observeElementOffset,
			scrollToFn: elementScroll,
			measureElement,
			onChange: () => this.schedule(),
		});
		this.dispose = this.virtualizer._didMount();
		this.virtualizer._willUpdate();
	}

	/** Shows the store's rows anew (a new snapshot or view), at `position` (the top when undefined). */
	setRows(position: { readonly index: number; readonly offset: number } | 'end' | undefined): void {
		this.clearElements();
		this.remeasure();
		this.virtualizer._willUpdate();
		this.place(position);
		this.renderNow();
	}

	/** Rows arrived: they replace their placeholders, and the row at the top stays where it is. */
	rowsArrived(): void {
		const position = this.position();
		this.remeasure();
		this.place(position);
		this.renderNow();
	}

	/** Rebuilds the rows on screen (expansion, search highlights). */
	refresh(): void {
		this.clearElements();
		this.renderNow();
	}

	/** Scrolls the least that shows row `index` whole (keyboard moves); nothing when it is on screen. */
	ensureVisible(index: number): void {
		this.virtualizer.getVirtualItems();
		const item = this.virtualizer.measurementsCache[index];
		const top = this.scroller.scrollTop;
		if (item && this.elementAt(index) && item.start >= top && item.end <= top + this.scroller.clientHeight) {
			return;
		}
		this.virtualizer.scrollToIndex(index, { align: 'auto' });
		this.renderNow();
	}

	/** The first and last rows wholly in the viewport (the one at the top when none is whole): where Page Up and Page Down go. */
	wholeRows(): { readonly first: number; readonly last: number } {
		const top = this.scroller.scrollTop;
		const whole = this.virtualizer.getVirtualItems().filter((item) => item.start >= top && item.end <= top + this.scroller.clientHeight);
		const first = whole[0]?.index ?? this.topIndex();
		return { first, last: whole.at(-1)?.index ?? first };
	}

	scrollToIndex(index: number): void {
		this.virtualizer.getVirtualItems();
		const start = this.virtualizer.measurementsCache[index]?.start;
		if (start !== undefined) {
			this.scrollTo(start);
		}
		this.virtualizer.scrollToIndex(index, { align: 'start' });
		this.renderNow();
	}

	/** The row at the top of the viewport; 'end' when at the bottom. */
	position(): ListPosition | 'end' | undefined {
		if (this.store.count > 0 && this.scroller.scrollTop > 0 && this.virtualizer.isAtEnd(4)) {
			return 'end';
		}
		const item = this.virtualizer.getVirtualItemForOffset(this.scroller.scrollTop);
		return item ? { index: item.index, key: this.store.row(item.index)?.key, offset: Math.max(0, this.scroller.scrollTop - item.start) } : undefined;
	}

	/** Index of the row at the top of the viewport (the last row when at the bottom). */
	topIndex(): number {
		const position = this.position();
		return position === 'end' ? this.store.count - 1 : position?.index ?? 0;
	}

	topKey(): string | undefined {
		const position = this.position();
		return position === 'end' ? this.store.row(this.store.count - 1)?.key : position?.key;
	}

	/** Indexes of the rows in the DOM (placeholders are not rows). */
	renderedIndexes(): number[] {
		return [...this.elements.entries()].filter(([key]) => !isPlaceholderKey(key)).map(([, node]) => Number(node.dataset.index)).sort((a, b) => a - b);
	}

	elementAt(index: number): HTMLElement | undefined {
		const key = this.store.row(index)?.key;
		return key === undefined ? undefined : this.elements.get(key);
	}

	private keyOf(index: number): string {
		return this.store.row(index)?.key ?? `#${index}`;
	}

	/** The rows held changed: sizes are estimated again for the rows not measured (a new key function makes the virtualizer recompute). */
	private remeasure(): void {
		this.virtualizer.setOptions({ ...this.virtualizer.options, count: this.store.count, getItemKey: (index) => this.keyOf(index) });
		this.virtualizer.getVirtualItems();
		this.inner.style.height = `${this.virtualizer.getTotalSize()}px`;
	}

	private place(position: { readonly index: number; readonly offset: number } | 'end' | undefined): void {
		if (position === 'end') {
			this.scrollTo(this.scroller.scrollHeight);
		} else if (position) {
			const start = this.virtualizer.measurementsCache[position.index]?.start;
			this.scrollTo(start === undefined ? 0 : start + position.offset);
		} else {
			this.scrollTo(0);
		}
	}

	/**
	 * Written straight to the element (the virtualizer may not know the viewport's size yet), and to
	 * the virtualizer's own offset at once: it hears of the scroll only with the next scroll event,
	 * and a row measured before that would be corrected from the old offset, moving the list away.
	 */
	private scrollTo(px: number): void {
		this.scroller.scrollTop = px;
		this.virtualizer.scrollOffset = this.scroller.scrollTop;
	}

	private schedule(): void {
		if (this.frame === 0) {
			this.frame = requestAnimationFrame(() => {
				this.frame = 0;
				this.renderNow();
			});
		}
	}

	private renderNow(): void {
		const items = this.virtualizer.getVirtualItems();
		this.inner.style.height = `${this.virtualizer.getTotalSize()}px`;
		const keep = new Set<string>();
		for (const item of items) {
			const row = this.store.row(item.index);
			const key = row?.key ?? `#${item.index}`;
			keep.add(key);
			let node = this.elements.get(key);
			if (!node) {
				node = row ? this.renderRow(row, item.index) : placeholder(item.index);
				this.elements.set(key, node);
				this.inner.appendChild(node);
				if (row) {
					this.virtualizer.measureElement(node);
				}
			}
			node.style.transform = `translateY(${item.start}px)`;
		}
		for (const [key, node] of this.elements) {
			if (!keep.has(key)) {
				node.remove();
				this.elements.delete(key);
			}
		}
		this.onRender(items[0]?.index ?? 0, items.at(-1)?.index ?? -1);
	}

	private clearElements(): void {
		for (const node of this.elements.values()) {
			node.remove();
		}
		this.elements.clear();
	}
}

function isPlaceholderKey(key: string): boolean {
	return key.startsWith('#');
}

/** Stands for a row not held yet, at the height the list gives it. */
function placeholder(index: number): HTMLElement {
	const node = el('div', { className: 'row-placeholder', attrs: { 'aria-busy': 'true' }, data: { index: String(index) } });
	node.style.height = `${PLACEHOLDER_PX}px`;
	return node;
}

/** A first guess before a row is measured: its header plus its text lines (wrapped at ~100 chars). */
function estimateHeight(row: PreviewRow | undefined): number {
	if (!row) {
		return PLACEHOLDER_PX;
	}
	let lines = 0;
	for (const block of row.blocks) {
		if (block.kind === 'thinking' || block.kind === 'image') {
			lines += 1;
		} else {
			for (const line of block.text.text.split('\n')) {
				lines += 1 + Math.floor(line.length / 100);
			}
			lines += block.kind === 'toolCall' ? 1 : 0;
		}
	}
	return ROW_HEADER_PX + 12 + lines * LINE_PX + (row.stub ? 2 * LINE_PX : 0);
}

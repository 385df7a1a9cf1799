/**
 * The virtualized message list (@tanstack/virtual-core): only the rows on screen, plus a small
 * overscan, are in the DOM, each measured once rendered. Row keys are stable across live updates,
 * so measured sizes and the scroll anchor survive a refresh.
 */
import { Virtualizer, elementScroll, measureElement, observeElementOffset, observeElementRect } from '@tanstack/virtual-core';
import type { PreviewRow } from '../src/shared/protocol';

export interface ScrollAnchor {
	readonly key: string;
	readonly offset: number;
}

const ROW_HEADER_PX = 28;
const LINE_PX = 18;

export class RowList {
	private rows: readonly PreviewRow[] = [];
	private readonly elements = new Map<string, HTMLElement>();
	private readonly virtualizer: Virtualizer<HTMLElement, HTMLElement>;
	private frame = 0;
	readonly dispose: () => void;

	constructor(
		private readonly scroller: HTMLElement,
		private readonly inner: HTMLElement,
		private readonly renderRow: (row: PreviewRow, index: number) => HTMLElement,
		private readonly onRender: () => void,
	) {
		this.virtualizer = new Virtualizer<HTMLElement, HTMLElement>({
			count: 0,
			getScrollElement: () => this.scroller,
			estimateSize: (index) => estimateHeight(this.rows[index]),
			getItemKey: (index) => this.rows[index]?.key ?? index,
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

	get count(): number {
		return this.rows.length;
	}

	/** Replaces the rows (a new snapshot or view); keeps the given anchor in place when it is still there. */
	setRows(rows: readonly PreviewRow[], anchor: ScrollAnchor | 'end' | undefined): void {
		this.rows = rows;
		this.clearElements();
		this.virtualizer.setOptions({ ...this.virtualizer.options, count: rows.length });
		this.virtualizer._willUpdate();
		this.virtualizer.getVirtualItems();
		this.inner.style.height = `${this.virtualizer.getTotalSize()}px`;
		// Written straight to the element: the virtualizer may not know the viewport's size yet.
		if (anchor === 'end') {
			this.scroller.scrollTop = this.scroller.scrollHeight;
		} else if (anchor) {
			const index = rows.findIndex((row) => row.key === anchor.key);
			const start = index >= 0 ? this.virtualizer.measurementsCache[index]?.start : undefined;
			this.scroller.scrollTop = start === undefined ? 0 : start + anchor.offset;
		} else {
			this.scroller.scrollTop = 0;
		}
		this.renderNow();
	}

	/** Rebuilds the rows on screen (expansion, search highlights). */
	refresh(): void {
		this.clearElements();
		this.renderNow();
	}

	scrollToIndex(index: number): void {
		this.virtualizer.getVirtualItems();
		const start = this.virtualizer.measurementsCache[index]?.start;
		if (start !== undefined) {
			this.scroller.scrollTop = start;
		}
		this.virtualizer.scrollToIndex(index, { align: 'start' });
		this.renderNow();
	}

	/** The row at the top of the viewport and how far it is scrolled past; 'end' when at the bottom. */
	anchor(): ScrollAnchor | 'end' | undefined {
		if (this.rows.length > 0 && this.scroller.scrollTop > 0 && this.virtualizer.isAtEnd(4)) {
			return 'end';
		}
		const item = this.virtualizer.getVirtualItemForOffset(this.scroller.scrollTop);
		const row = item && this.rows[item.index];
		return row && item ? { key: row.key, offset: Math.max(0, this.scroller.scrollTop - item.start) } : undefined;
	}

	/** Index of the row at the top of the viewport (the last row when at the bottom). */
	topIndex(): number {
		const anchor = this.anchor();
		return anchor === 'end' ? this.rows.length - 1 : anchor ? this.rows.findIndex((row) => row.key === anchor.key) : 0;
	}

	topKey(): string | undefined {
		const anchor = this.anchor();
		return anchor === 'end' ? this.rows.at(-1)?.key : anchor?.key;
	}

	renderedIndexes(): number[] {
		return [...this.elements.values()].map((node) => Number(node.dataset.index)).sort((a, b) => a - b);
	}

	elementAt(index: number): HTMLElement | undefined {
		const key = this.rows[index]?.key;
		return key === undefined ? undefined : this.elements.get(key);
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
			const row = this.rows[item.index];
			if (!row) {
				continue;
			}
			keep.add(row.key);
			let node = this.elements.get(row.key);
			if (!node) {
				node = this.renderRow(row, item.index);
				this.elements.set(row.key, node);
				this.inner.appendChild(node);
				this.virtualizer.measureElement(node);
			}
			node.style.transform = `translateY(${item.start}px)`;
		}
		for (const [key, node] of this.elements) {
			if (!keep.has(key)) {
				node.remove();
				this.elements.delete(key);
			}
		}
		this.onRender();
	}

	private clearElements(): void {
		for (const node of this.elements.values()) {
			node.remove();
		}
		this.elements.clear();
	}
}

/** A first guess before a row is measured: its header plus its text lines (wrapped at ~100 chars). */
function estimateHeight(row: PreviewRow | undefined): number {
	if (!row) {
		return ROW_HEADER_PX;
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

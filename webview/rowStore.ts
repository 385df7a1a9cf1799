/**
 * The rows the page holds of the view it shows: the snapshot gives the row count and a first
 * window, the host the other windows as the page asks for them. Only rows of the held snapshot and
 * view are kept (a late answer to an older snapshot is dropped), with the refs they name. Rows far
 * from where the page last looked are let go past a bound, so scrolling through a 66,000-row view
 * never makes the page hold all of it.
 */
import type { PageSnapshot, PreviewRow, RefInfo, RowWindow, ViewName } from '../src/shared/protocol';

/** At most this many rows are held; past it, those farthest from the latest window go. */
const HELD_ROWS = 5000;

export class RowStore {
	snapshotId = -1;
	view: ViewName = 'after';
	count = 0;
	private readonly rows = new Map<number, PreviewRow>();
	private readonly indexes = new Map<string, number>();
	private readonly refInfos = new Map<string, RefInfo>();
	/** The names of the refs held: the words the rows link. */
	readonly refNames = new Set<string>();

	/** Starts over with a snapshot: its counts and its first window. */
	reset(snapshot: PageSnapshot): void {
		this.clear();
		this.snapshotId = snapshot.snapshotId;
		this.view = snapshot.view;
		this.count = snapshot.rowCounts[snapshot.view];
		this.put(snapshot.window);
	}

	/** Holds nothing (no session). */
	clear(): void {
		this.snapshotId = -1;
		this.count = 0;
		this.rows.clear();
		this.indexes.clear();
		this.refInfos.clear();
		this.refNames.clear();
	}

	/** Keeps a window's rows and refs if it belongs to the held snapshot and view; says whether it did. */
	put(window: RowWindow): boolean {
		if (window.snapshotId !== this.snapshotId || window.view !== this.view) {
			return false;
		}
		window.rows.forEach((row, offset) => {
			const index = window.start + offset;
			if (index < this.count) {
				this.rows.set(index, row);
				this.indexes.set(row.key, index);
			}
		});
		this.addRefs(window.refs);
		this.letGo(window.start + window.rows.length / 2);
		return true;
	}

	/** Refs named by rows shown another way (the full blocks of an expanded row). */
	addRefs(refs: readonly RefInfo[]): void {
		for (const info of refs) {
			this.refInfos.set(info.ref, info);
			this.refNames.add(info.ref);
		}
	}

	row(index: number): PreviewRow | undefined {
		return this.rows.get(index);
	}

	/** The index of a held row, by its key. */
	indexOf(key: string): number | undefined {
		return this.indexes.get(key);
	}

	/**
	 * Where a row the page showed is in the rows held now: found by its key (the host places its
	 * windows around the row the page showed), else at `index` when one is given.
	 */
	locate(at: { readonly key?: string | undefined; readonly index?: number; readonly offset: number } | undefined): { index: number; offset: number } | undefined {
		const index = (at?.key === undefined ? undefined : this.indexOf(at.key)) ?? at?.index;
		return at && index !== undefined ? { index, offset: at.offset } : undefined;
	}

	refInfo(ref: string): RefInfo | undefined {
		return this.refInfos.get(ref);
	}

	/** The smallest range within `start`..`end` (exclusive) holding every row not held; undefined when all are. */
	missing(start: number, end: number): { readonly start: number; readonly end: number } | undefined {
		const from = Math.max(0, start);
		const to = Math.min(this.count, end);
		let first = from;
		while (first < to && this.rows.has(first)) {
			first++;
		}
		let last = to;
		while (last > first && this.rows.has(last - 1)) {
			last--;
		}
		return first < last ? { start: first, end: last } : undefined;
	}

	private letGo(center: number): void {
		if (this.rows.size <= HELD_ROWS) {
			return;
		}
		const farthest = [...this.rows.keys()].sort((a, b) => Math.abs(b - center) - Math.abs(a - center));
		for (const index of farthest.slice(0, this.rows.size - HELD_ROWS)) {
			const key = this.rows.get(index)?.key;
			this.rows.delete(index);
			if (key !== undefined) {
				this.indexes.delete(key);
			}
		}
	}
}

/**
 * Long lists of rows cut into ranges. VS Code sends all the children of a row to the window in one
 * message, converted and serialized on the extension host's thread: the 15,006 pending batches of
 * a 40 MB session held it 308 ms when their group was expanded. Pure.
 */
import { Pacer, type Steps } from '../steps';
import type { Expandable, PrunedNode, RangeNode } from './prunedCallsTypes';

/** At most this many rows under one row. */
export const TREE_PAGE_ROWS = 500;

/** The items of a list, by index, built only when shown. */
export interface RowSource {
	readonly count: number;
	row(index: number): PrunedNode;
	/** True when what `ref` names is item `index` or below it (see `Expandable.holds`). */
	holdsAt?(index: number, ref: string): boolean;
}

/**
 * The children of a row whose items are `source`: the items themselves when there are at most
 * `TREE_PAGE_ROWS`, else ranges of them (`noun` names the items: "Batches 1–500"), ranges of
 * ranges past 250,000 items.
 */
export function pagedRows(parentId: string, noun: string, source: RowSource): Expandable {
	return rangeRows(parentId, noun, source, 0, source.count);
}

function rangeRows(parentId: string, noun: string, source: RowSource, start: number, end: number): Expandable {
	const count = end - start;
	const holdsAt = source.holdsAt?.bind(source);
	const holds = holdsAt ? (ref: string): boolean => {
		for (let index = start; index < end; index++) {
			if (holdsAt(index, ref)) {
				return true;
			}
		}
		return false;
	} : (): boolean => false;
	let pageSize = 1;
	while (count / pageSize > TREE_PAGE_ROWS) {
		pageSize *= TREE_PAGE_ROWS;
	}
	if (pageSize === 1) {
		return { childCount: count, children: () => rowsSteps(source, start, end), holds };
	}
	const pages = Math.ceil(count / pageSize);
	return {
		childCount: pages,
		*children() {
			const ranges: RangeNode[] = [];
			for (let from = start; from < end; from += pageSize) {
				ranges.push(rangeNode(parentId, noun, source, from, Math.min(end, from + pageSize), pageSize));
			}
			yield;
			return ranges;
		},
		holds,
	};
}

function rangeNode(parentId: string, noun: string, source: RowSource, start: number, end: number, pageSize: number): RangeNode {
	// By its start, not its end: the last range grows with the session and keeps its row.
	const id = `${parentId}/${pageSize}@${start}`;
	return {
		kind: 'range',
		id,
		label: `${noun} ${start + 1}–${end}`,
		description: `of ${source.count.toLocaleString('en')}`,
		...rangeRows(id, noun, source, start, end),
	};
}

function* rowsSteps(source: RowSource, start: number, end: number): Steps<PrunedNode[]> {
	const rows: PrunedNode[] = [];
	const pacer = new Pacer();
	for (let index = start; index < end; index++) {
		const row = source.row(index);
		rows.push(row);
		if (pacer.due(row.label.length)) {
			yield;
		}
	}
	return rows;
}

/** A source over an array. */
export function arrayRows<T>(items: readonly T[], row: (item: T, index: number) => PrunedNode, holds?: (item: T, ref: string) => boolean): RowSource {
	return {
		count: items.length,
		row: (index) => row(items[index] as T, index),
		...(holds ? { holdsAt: (index: number, ref: string) => holds(items[index] as T, ref) } : {}),
	};
}

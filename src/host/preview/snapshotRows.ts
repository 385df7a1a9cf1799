/**
 * The rows of one preview computation as the page gets them: windows of consecutive rows, bounded
 * in count and in bytes, each with the refs its rows name; and a row's index from its key (the
 * page's saved anchor and its expansions name rows by key). On a realistic 100 MB session the raw
 * view is 66,496 rows, 41.6 MB of JSON: posted at once it held the extension host ~500 ms, so the
 * page only ever gets the rows near its viewport, and the rows are built for the window asked.
 */
import type { PageHead } from './pageHead';
import { pageActions } from '../../engine/views';
import type { WhatIfResult } from '../../engine/preview';
import { UNBOUNDED } from '../../base/boundedText';
import { paced, type Steps } from '../../engine/steps';
import type { PageSnapshot, PreviewBlock, PreviewRow, RefInfo, RowWindow, ViewName } from '../../shared/protocol';

/** At most this many rows in one message. */
export const WINDOW_ROWS = 500;
/**
 * At most this many bytes (UTF-8 JSON) in one message carrying rows (an expanded row's detail, or
 * a window: one row always goes, whatever its size). VS Code serializes a webview message on the
 * extension host's thread, twice (its own JSON, then its RPC framing): in VS Code on a busy 2-core
 * machine a 290 KB window held the host 40 ms or more.
 */
export const MESSAGE_BYTES = 256 * 1024;
/** A window's rows and refs take at most this much: the page needs about 250 rows at a time, a few hundred bytes each. */
export const WINDOW_BYTES = 128 * 1024;
/** Room for what wraps a window or a detail in its message (type, ids, field names). */
const ENVELOPE_BYTES = 256;
const WINDOW_BUDGET = WINDOW_BYTES - ENVELOPE_BYTES;
/** An expanded row's texts are never cut below this many characters each. */
const MIN_DETAIL_CHARS = 1000;
/** The words the page turns into ref links (webview/textMarks.ts): the refs a row names are among them. */
const WORD = /[A-Za-z][A-Za-z0-9_-]*/g;

export interface RowDetail {
	readonly blocks: PreviewBlock[];
	readonly refs: RefInfo[];
}

export class SnapshotRows {
	private refsByName: ReadonlyMap<string, RefInfo> | undefined;

	constructor(readonly id: number, readonly computation: WhatIfResult) {}

	get snapshot(): WhatIfResult['snapshot'] {
		return this.computation.snapshot;
	}

	count(view: ViewName): number {
		return this.computation.rows.count(view);
	}

	/** The index of the row with this key. */
	indexOf(view: ViewName, key: string): number | undefined {
		return this.computation.rows.indexOfKey(view, key);
	}

	/** `range` yielding after each row (a row of a big tool result is milliseconds of work). */
	*rangeSteps(view: ViewName, start: number, end: number, budget = WINDOW_BUDGET): Steps<RowWindow> {
		const rows = new RowReader(this.computation, view);
		const from = Math.min(Math.max(0, start), rows.length);
		const to = Math.min(Math.max(from, end), rows.length, from + WINDOW_ROWS);
		const builder = new WindowBuilder(yield* this.refsSteps(), budget);
		let next = from;
		while (next < to && builder.add(rows.at(next), 1)) {
			next++;
			yield;
		}
		return this.window(view, from, next, rows, builder);
	}

	/** `around` yielding after each row. */
	*aroundSteps(view: ViewName, index: number, budget = WINDOW_BUDGET): Steps<RowWindow> {
		const rows = new RowReader(this.computation, view);
		const at = Math.min(Math.max(0, index), rows.length);
		const builder = new WindowBuilder(yield* this.refsSteps(), budget);
		let start = at;
		let end = at;
		while (end < rows.length && end - start < WINDOW_ROWS * 0.75 && builder.add(rows.at(end), 0.75)) {
			end++;
			yield;
		}
		while (start > 0 && end - start < WINDOW_ROWS && builder.add(rows.at(start - 1), 1)) {
			start--;
			yield;
		}
		while (end < rows.length && end - start < WINDOW_ROWS && builder.add(rows.at(end), 1)) {
			end++;
			yield;
		}
		return this.window(view, start, end, rows, builder);
	}

	/**
	 * A row's blocks for "Show all", with the refs they name: in full when they fit one message,
	 * else with every text cut to the same bound, halved until they fit (the page says how much of
	 * each is left out; a ref opens the whole output). `blocksAt(max)` gives the blocks with texts of
	 * at most `max` characters. In steps: the refs are indexed the first time they are needed.
	 */
	*detailSteps(blocksAt: (maxChars: number) => PreviewBlock[], budget = MESSAGE_BYTES - ENVELOPE_BYTES): Steps<RowDetail> {
		const known = yield* this.refsSteps();
		let blocks = blocksAt(UNBOUNDED);
		let maxChars = Math.floor(budget / Math.max(1, blocks.length));
		for (;;) {
			const found = new Map<string, RefInfo>();
			namedRefs(blocks, known, found);
			const detail = { blocks, refs: [...found.values()] };
			if (jsonBytes(detail) <= budget || maxChars < MIN_DETAIL_CHARS) {
				return detail;
			}
			blocks = blocksAt(maxChars);
			maxChars = Math.floor(maxChars / 2);
		}
	}

	private window(view: ViewName, start: number, end: number, rows: RowReader, builder: WindowBuilder): RowWindow {
		const taken: PreviewRow[] = [];
		for (let i = start; i < end; i++) {
			taken.push(rows.at(i));
		}
		return { snapshotId: this.id, view, start, rows: taken, refs: builder.refs() };
	}

	/** Every ref by name, indexed the first time a window needs it (in steps: a long session has tens of thousands). */
	private *refsSteps(): Steps<ReadonlyMap<string, RefInfo>> {
		if (this.refsByName === undefined) {
			const byName = new Map<string, RefInfo>();
			const refs = this.snapshot.refs;
			for (let i = 0; i < refs.length; i++) {
				if (paced(i)) {
					yield;
				}
				const info = refs[i] as RefInfo;
				byName.set(info.ref, info);
			}
			this.refsByName = byName;
		}
		return this.refsByName;
	}
}

/** The rows of one view as a window is put together: each built once, when first looked at. */
class RowReader {
	private readonly built = new Map<number, PreviewRow>();
	readonly length: number;

	constructor(private readonly computation: WhatIfResult, private readonly view: ViewName) {
		this.length = computation.rows.count(view);
	}

	at(index: number): PreviewRow {
		const known = this.built.get(index);
		if (known) {
			return known;
		}
		const row = this.computation.rows.row(this.view, index) as PreviewRow;
		this.built.set(index, row);
		return row;
	}
}

/** Counts the bytes of the rows taken and of the refs they name, each ref once. */
class WindowBuilder {
	private bytes = 0;
	private taken = 0;
	private readonly named = new Map<string, RefInfo>();

	constructor(private readonly known: ReadonlyMap<string, RefInfo>, private readonly budget: number) {}

	/** Takes the row if it fits in `share` of the budget (the first row always does). */
	add(row: PreviewRow, share: number): boolean {
		const fresh = new Map<string, RefInfo>();
		namedRefs(row, this.known, fresh);
		let cost = jsonBytes(row) + 1;
		for (const [name, info] of fresh) {
			if (!this.named.has(name)) {
				cost += jsonBytes(info) + 1;
			}
		}
		if (this.taken > 0 && this.bytes + cost > this.budget * share) {
			return false;
		}
		this.bytes += cost;
		this.taken++;
		for (const [name, info] of fresh) {
			this.named.set(name, info);
		}
		return true;
	}

	refs(): RefInfo[] {
		return [...this.named.values()];
	}
}

/** Adds to `found` every known ref that a string anywhere in `value` names as a word. */
function namedRefs(value: unknown, known: ReadonlyMap<string, RefInfo>, found: Map<string, RefInfo>): void {
	if (typeof value === 'string') {
		for (const word of value.match(WORD) ?? []) {
			const info = known.get(word);
			if (info) {
				found.set(word, info);
			}
		}
	} else if (Array.isArray(value)) {
		for (const item of value) {
			namedRefs(item, known, found);
		}
	} else if (typeof value === 'object' && value !== null) {
		for (const item of Object.values(value)) {
			namedRefs(item, known, found);
		}
	}
}

function jsonBytes(value: unknown): number {
	return Buffer.byteLength(JSON.stringify(value));
}

/**
 * The snapshot as the page gets it: both views' figures and row counts, what the header says
 * (`pageHead.ts`), and the window of the shown view around row `at`, within what the rest of the
 * message leaves of the byte bound. Yields after each row of the window (see `SnapshotRows.aroundSteps`).
 */
export function* pageSnapshotSteps(rows: SnapshotRows, view: ViewName, at: number, head: PageHead | undefined): Steps<PageSnapshot> {
	const { refs: _refs, ...rest } = rows.snapshot;
	const followed = head?.followed;
	const top = {
		...rest, snapshotId: rows.id, view, rowCounts: { after: rows.count('after'), before: rows.count('before') },
		...(head?.statusLine === undefined ? {} : { statusText: head.statusLine }),
		releaseLine: followed?.line ?? `pi-condense ${rows.snapshot.release}`, piCondenseInstalled: followed?.installed ?? true,
		compactable: head?.compactable ?? '', pending: head?.pending, actions: head?.actions ?? pageActions('on', true, 0),
	};
	const window = yield* rows.aroundSteps(view, at, WINDOW_BUDGET - jsonBytes(top));
	return { ...top, window };
}


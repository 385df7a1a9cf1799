/**
 * Asks the host for the rows the list needs and the page does not hold. One request at a time:
 * while it is answered, only the latest range wanted waits (scrolling fast through a long view
 * asks for where it stopped, not for every screen on the way). A little before and more after the
 * screen is asked for too, so that scrolling on finds rows already there.
 */
import type { FromWebview, RowWindow } from '../src/shared/protocol';
import type { RowStore } from './rowStore';

const AHEAD_ROWS = 150;
const BEHIND_ROWS = 50;

export class RowRequests {
	private inFlight: number | undefined;
	private wanted: { readonly start: number; readonly end: number } | undefined;
	/** Run once the row at `index` is held (a search match or a reveal waiting for its row). */
	private waiting: { readonly index: number; readonly then: () => void } | undefined;
	/** The key of the top row last told to the host. */
	private toldTop: string | undefined;

	constructor(
		private readonly store: RowStore,
		private readonly post: (message: Extract<FromWebview, { type: 'rows' | 'viewport' }>) => void,
		private readonly nextRequestId: () => number,
	) {}

	/** Tells the host which row is at the top when it changed: the next snapshot's window is placed around it. */
	tellTop(key: string | undefined): void {
		if (key !== undefined && key !== this.toldTop) {
			this.toldTop = key;
			this.post({ type: 'viewport', view: this.store.view, key });
		}
	}

	/** The page shows another view: the host places windows from the row it was asked to show, until told otherwise. */
	forgetTop(): void {
		this.toldTop = undefined;
	}

	/** Rows `first` to `last` are on screen (or about to be). */
	want(first: number, last: number): void {
		this.wanted = { start: first - BEHIND_ROWS, end: last + 1 + AHEAD_ROWS };
		if (this.inFlight === undefined) {
			this.ask();
		}
	}

	/** Runs `then` once the row at `index` is held (at once if it is); a later call replaces an earlier one. */
	whenHeld(index: number, then: () => void): void {
		this.waiting = undefined;
		if (this.store.row(index)) {
			then();
		} else {
			this.waiting = { index, then };
		}
	}

	/** An answer: its rows are kept if they belong to the held snapshot and view (says whether they did). */
	answered(requestId: number, window: RowWindow): boolean {
		if (requestId === this.inFlight) {
			this.inFlight = undefined;
		}
		return this.store.put(window);
	}

	/** After rows arrived and were shown: runs what waited for them, then asks for the latest range wanted. */
	next(): void {
		const waiting = this.waiting;
		if (waiting && this.store.row(waiting.index)) {
			this.waiting = undefined;
			waiting.then();
		}
		if (this.inFlight === undefined) {
			this.ask();
		}
	}

	/** A new snapshot (or none): requests made for the previous one are forgotten. */
	reset(): void {
		this.inFlight = undefined;
		this.wanted = undefined;
		this.waiting = undefined;
	}

	private ask(): void {
		const wanted = this.wanted;
		this.wanted = undefined;
		const gap = wanted && this.store.missing(wanted.start, wanted.end);
		if (!gap) {
			return;
		}
		const requestId = this.nextRequestId();
		this.inFlight = requestId;
		this.post({ type: 'rows', requestId, snapshotId: this.store.snapshotId, view: this.store.view, ...gap });
	}
}

/**
 * A session's costs overview kept as the session grows: the timeline pass (`sessionTimeline.ts`)
 * stopped after the last entry read, ready to read the next ones. What the Costs panel paints first,
 * the status bar's cache countdown and the history's rows read from it. Pure and immutable: a ledger
 * stands for the entries it has read; `extendSteps` returns a new ledger for a longer list of the
 * same session's entries (an append costs its new entries only), and the old one stays valid.
 *
 * The lists of requests, markers, lifetimes and rebuilds are shared by a ledger and the ledgers
 * extended from it, each reading its own prefix: only the newest ledger of a line appends to them
 * (an older one extended again copies its prefix first), as `EntryIndex` does for the model.
 *
 * @example
 * let ledger = runSteps(CostsLedger.empty().extendSteps(model.entries));
 * ledger.overview(NO_PRICES).summary.spend.total  // as Pi's /session counts it
 * ledger = runSteps(ledger.extendSteps(longerModel.entries)); // reads only the appended entries
 */
import type { SessionEntry } from '../session/types';
import { paced, type Steps } from '../steps';
import { pricedRebuild, type CacheRebuild } from './cacheRebuilds';
import { singleRequestPrices, type PriceBook } from './prices';
import { cacheStateOf, lastUseOf, rewriteTokensAfter, type CacheState, type LastUse } from './cacheState';
import { sessionSummary, type CostSummary } from './sessionSummary';
import { copyPassState, emptyPassState, flushMarker, TimelinePass, type PassState, type SessionTimeline, type TimelineLists } from './sessionTimeline';

/** What a Costs panel paints first: the timeline, the cache rebuilds and the summary without prune accounts. */
export interface SessionOverview {
	readonly timeline: SessionTimeline;
	readonly rebuilds: readonly CacheRebuild[];
	readonly summary: CostSummary;
}

interface ListCounts {
	readonly requests: number;
	readonly markers: number;
	readonly rebuilds: number;
}

export class CostsLedger {
	/** The last overview handed out, for the price book it was priced with. */
	private shown: { readonly book: PriceBook; readonly overview: SessionOverview } | undefined;

	private constructor(
		private readonly lists: TimelineLists,
		private readonly counts: ListCounts,
		private readonly state: PassState,
		/** How many of the session's entries it has read. */
		readonly entriesRead: number,
	) {}

	/** A ledger that has read nothing. */
	static empty(): CostsLedger {
		return new CostsLedger({ requests: [], markers: [], lifetimes: [], rebuilds: [] }, { requests: 0, markers: 0, rebuilds: 0 }, emptyPassState(), 0);
	}

	/**
	 * This ledger continued over `entries`, the same session's entries (its first `entriesRead` the
	 * ones this ledger read); itself when there is nothing new.
	 */
	*extendSteps(entries: readonly SessionEntry[]): Steps<CostsLedger> {
		if (entries.length <= this.entriesRead) {
			return this;
		}
		const lists = this.ownsListEnds() ? this.lists : this.copiedLists();
		const state = copyPassState(this.state);
		const pass = new TimelinePass(lists, state);
		for (let at = this.entriesRead; at < entries.length; at++) {
			if (paced(at)) {
				yield;
			}
			pass.read(entries[at] as SessionEntry, at);
		}
		return new CostsLedger(lists, { requests: lists.requests.length, markers: lists.markers.length, rebuilds: lists.rebuilds.length }, state, entries.length);
	}

	/** The timeline of the entries read (a flush still open at the end counts as closed). */
	timeline(): SessionTimeline {
		const { lists, counts, state } = this;
		const markers = lists.markers.slice(0, counts.markers);
		const open = state.flush && flushMarker(state.flush, counts.requests);
		if (open !== undefined) {
			markers.push(open);
		}
		return {
			requests: lists.requests.slice(0, counts.requests),
			markers,
			lifetimes: lists.lifetimes.slice(0, counts.requests),
			sums: { ...state.sums },
		};
	}

	/** The overview, its rebuilds priced with `book` (catalog prices for requests that read nothing from the cache). */
	overview(book: PriceBook): SessionOverview {
		if (this.shown?.book === book) {
			return this.shown.overview;
		}
		const timeline = this.timeline();
		const rebuilds = this.lists.rebuilds.slice(0, this.counts.rebuilds).map((found) => pricedRebuild(found, book));
		const overview: SessionOverview = { timeline, rebuilds, summary: sessionSummary(timeline, rebuilds, undefined) };
		this.shown = { book, overview };
		return overview;
	}

	/** Whether the provider's cache likely holds the last prompt at `now` (cheap: the last requests only). */
	cacheAt(now: number, book: PriceBook): CacheState {
		return cacheStateOf(this.lists.requests, this.counts.requests, this.lists.lifetimes, (request) => singleRequestPrices(request, book), now);
	}

	/** The last reply's usage and the cache's last use (the live panel's countdown). */
	lastUse(): LastUse | undefined {
		return lastUseOf(this.lists.requests, this.counts.requests, this.lists.lifetimes);
	}

	/** `rewriteTokensAfter` over this ledger's requests. */
	rewriteTokensAfter(cachedTokens: number, callEntryId: string, removedTokens: number): number | undefined {
		return rewriteTokensAfter(this.lists.requests, this.counts.requests, cachedTokens, callEntryId, removedTokens);
	}

	/** Whether the shared lists end where this ledger's prefix ends (no ledger extended from it has appended). */
	private ownsListEnds(): boolean {
		const { lists, counts } = this;
		return lists.requests.length === counts.requests && lists.markers.length === counts.markers && lists.rebuilds.length === counts.rebuilds;
	}

	private copiedLists(): TimelineLists {
		const { lists, counts } = this;
		return {
			requests: lists.requests.slice(0, counts.requests),
			markers: lists.markers.slice(0, counts.markers),
			lifetimes: lists.lifetimes.slice(0, counts.requests),
			rebuilds: lists.rebuilds.slice(0, counts.rebuilds),
		};
	}
}

/** A session's timeline from its entries: one pass. */
export function* sessionTimelineSteps(entries: readonly SessionEntry[]): Steps<SessionTimeline> {
	return (yield* CostsLedger.empty().extendSteps(entries)).timeline();
}

/** A session's overview from its entries: one pass. */
export function* sessionOverviewSteps(entries: readonly SessionEntry[], book: PriceBook): Steps<SessionOverview> {
	return (yield* CostsLedger.empty().extendSteps(entries)).overview(book);
}

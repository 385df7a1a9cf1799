/**
 * Cache rebuilds: requests that paid again for a prompt the previous request had cached. Counted and
 * priced exactly as Pi 1.6.0's `/session` counts its "cache waste" (`core/cache-stats.js`), so our
 * figures and Pi's agree: over the whole file in order, a compaction or branch summary starts afresh
 * (the context legitimately changed), a `cache_warm` usage entry stands for the previous request,
 * and a reply missed `min(previous prompt, its prompt) − its cache read` tokens; misses of 1,024
 * tokens or fewer are breakpoint noise. A miss is priced at what the request paid per uncached
 * token (input and cache write) less the cache-read price. Each rebuild gets a cause from the
 * timeline's markers. Pure.
 *
 * Found in the timeline's own pass (`sessionTimeline.ts`, one `RebuildTracker` fed every entry in
 * file order), and priced when the timeline is handed out: a request that read nothing from the
 * cache takes the catalog's cache-read price, which may arrive later than the session.
 */
import type { SessionEntry } from '../session/types';
import { markersBetween, type TimelineMarker } from './markerTypes';
import type { PriceBook } from './prices';
import type { RequestPoint } from './requestTypes';

/** Pi's floor: misses at or below it are cache-breakpoint granularity. */
export const MISS_NOISE_FLOOR_TOKENS = 1024;

export type RebuildCause = 'model-change' | 'expired' | 'prune' | 'branch-switch' | 'unexplained';

export interface CacheRebuild {
	/** The request that paid for it (index in the timeline). */
	readonly request: number;
	readonly missedTokens: number;
	/** USD beyond reading the same tokens from the cache. */
	readonly missedCost: number;
	readonly idleMs: number;
	readonly cause: RebuildCause;
}

/** A rebuild before pricing: the read price is the request's own when it read from the cache. */
export interface FoundRebuild {
	readonly request: number;
	readonly missedTokens: number;
	/** USD per token the request paid outside the cache. */
	readonly paidPerToken: number;
	/** USD per token it paid to read, or undefined when it read nothing (the catalog's price then). */
	readonly readPerToken: number | undefined;
	readonly modelKey: string;
	readonly idleMs: number;
	readonly cause: RebuildCause;
}

interface Previous {
	readonly promptTokens: number;
	readonly modelKey: string;
	readonly at: number;
	readonly reportedCache: boolean;
	readonly request: number;
}

/** Pi's rule, one entry at a time in file order. Mutable; `clone` copies it (a few fields). */
export class RebuildTracker {
	private previous: Previous | undefined;

	clone(): RebuildTracker {
		const copy = new RebuildTracker();
		copy.previous = this.previous;
		return copy;
	}

	/**
	 * Reads `entry` (whose request, if it records one, is `request`, of model `modelKey`); `markers`:
	 * every marker of the file so far, which holds every marker before `request`. The rebuild it
	 * paid for, if any.
	 */
	read(entry: SessionEntry, request: RequestPoint | undefined, modelKey: string, markers: readonly TimelineMarker[]): FoundRebuild | undefined {
		if (entry.type === 'compaction' || entry.type === 'branch_summary') {
			this.reset();
			return undefined;
		}
		return request && this.request(request, modelKey, markers);
	}

	/** A compaction or branch summary: the context legitimately changed, nothing was cached for it. */
	reset(): void {
		this.previous = undefined;
	}

	/** Reads one request (in file order): the rebuild it paid for, if any. */
	request(request: RequestPoint, modelKey: string, markers: readonly TimelineMarker[]): FoundRebuild | undefined {
		if (request.kind === 'usage' && request.usageKind === 'cache_warm') {
			if (request.contextTokens > 0) {
				this.previous = { promptTokens: request.contextTokens, modelKey, at: request.at, reportedCache: true, request: request.index };
			}
		} else if (request.kind === 'reply') {
			const previous = this.previous;
			const found = previous && missOf(previous, request, modelKey, markers);
			if (request.contextTokens > 0) {
				const reportedCache = (previous?.reportedCache ?? false) || request.tokens.cacheRead + request.tokens.cacheWrite > 0;
				this.previous = { promptTokens: request.contextTokens, modelKey, at: request.at, reportedCache, request: request.index };
			}
			return found;
		}
		return undefined;
	}
}

function missOf(previous: Previous, request: RequestPoint, modelKey: string, markers: readonly TimelineMarker[]): FoundRebuild | undefined {
	const { input, cacheRead, cacheWrite } = request.tokens;
	const prompt = request.contextTokens;
	// A turn without cache figures counts only when the provider reported caching before.
	if (prompt <= 0 || (cacheRead + cacheWrite === 0 && !previous.reportedCache)) {
		return undefined;
	}
	const missedTokens = Math.min(previous.promptTokens, prompt) - cacheRead;
	if (missedTokens <= MISS_NOISE_FLOOR_TOKENS) {
		return undefined;
	}
	const paidTokens = input + cacheWrite;
	return {
		request: request.index,
		missedTokens,
		paidPerToken: paidTokens > 0 ? (request.cost.input + request.cost.cacheWrite) / paidTokens : 0,
		readPerToken: cacheRead > 0 ? request.cost.cacheRead / cacheRead : undefined,
		modelKey,
		idleMs: Math.max(0, request.at - previous.at),
		cause: causeOf(previous, request, modelKey, markers),
	};
}

/** The rebuild priced: a request that read nothing from the cache takes the catalog's cache-read price. */
export function pricedRebuild(found: FoundRebuild, book: PriceBook): CacheRebuild {
	return { request: found.request, missedTokens: found.missedTokens, missedCost: rebuildCost(found, book), idleMs: found.idleMs, cause: found.cause };
}

/** What a rebuild cost beyond reading its tokens from the cache (`pricedRebuild`'s `missedCost`). */
export function rebuildCost(found: Pick<FoundRebuild, 'missedTokens' | 'paidPerToken' | 'readPerToken' | 'modelKey'>, book: PriceBook): number {
	const readPerToken = found.readPerToken ?? (book.get(found.modelKey)?.cacheRead ?? 0) / 1_000_000;
	return found.missedTokens * Math.max(0, found.paidPerToken - readPerToken);
}

/** Why the cache was cold: what the timeline shows between the previous request and this one. */
function causeOf(previous: Previous, request: RequestPoint, modelKey: string, markers: readonly TimelineMarker[]): RebuildCause {
	if (previous.modelKey !== modelKey) {
		return 'model-change';
	}
	const between = markersBetween(markers, previous.request, request.index);
	if (between.some((marker) => marker.kind === 'idle-gap' && marker.beforeRequest === request.index)) {
		return 'expired';
	}
	if (between.some((marker) => marker.kind === 'prune')) {
		return 'prune';
	}
	return between.some((marker) => marker.kind === 'branch-switch') ? 'branch-switch' : 'unexplained';
}

/**
 * Cache rebuilds: requests that paid again for a prompt the previous request had cached. Counted and
 * priced exactly as Pi 1.6.0's `/session` counts its "cache waste" (`core/cache-stats.js`), so our
 * figures and Pi's agree: over the whole file in order, a compaction or branch summary starts afresh
 * (the context legitimately changed), a `cache_warm` usage entry stands for the previous request,
 * and a reply missed `min(previous prompt, its prompt) − its cache read` tokens; misses of 1,024
 * tokens or fewer are breakpoint noise. A miss is priced at what the request paid per uncached
 * token (input and cache write) less the cache-read price. Then each rebuild gets a cause from the
 * timeline's markers. Pure.
 */
import type { SessionEntry } from '../session/types';
import { paced, type Steps } from '../steps';
import type { TimelineMarker } from './markerTypes';
import type { PriceBook } from './prices';
import { requestOf } from './requestPoints';
import type { RequestPoint } from './requestTypes';
import { markersBetween, modelKeyOf } from './sessionTimeline';

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

interface Previous {
	readonly promptTokens: number;
	readonly modelKey: string;
	readonly at: number;
	readonly reportedCache: boolean;
	readonly request: number;
}

/** `entries` in file order (all of them, as Pi scans them); `markers` from the same file's timeline. */
export function* cacheRebuildsSteps(entries: readonly SessionEntry[], markers: readonly TimelineMarker[], book: PriceBook): Steps<CacheRebuild[]> {
	const rebuilds: CacheRebuild[] = [];
	let previous: Previous | undefined;
	let index = 0;
	for (let at = 0; at < entries.length; at++) {
		if (paced(at)) {
			yield;
		}
		const entry = entries[at] as SessionEntry;
		const request = requestOf(entry, index);
		if (request !== undefined) {
			index++;
		}
		if (entry.type === 'compaction' || entry.type === 'branch_summary') {
			previous = undefined;
		} else if (request?.kind === 'usage' && request.usageKind === 'cache_warm') {
			if (request.contextTokens > 0) {
				previous = { promptTokens: request.contextTokens, modelKey: modelKeyOf(request), at: Date.parse(entry.timestamp), reportedCache: true, request: request.index };
			}
		} else if (request?.kind === 'reply') {
			const miss = missOf(previous, request, book);
			if (miss !== undefined && previous !== undefined) {
				rebuilds.push({ request: request.index, ...miss, cause: causeOf(previous, request, markers) });
			}
			previous = asPrevious(request, previous?.reportedCache ?? false) ?? previous;
		}
	}
	return rebuilds;
}

function missOf(previous: Previous | undefined, request: RequestPoint, book: PriceBook): Omit<CacheRebuild, 'request' | 'cause'> | undefined {
	const { input, cacheRead, cacheWrite } = request.tokens;
	const prompt = request.contextTokens;
	// A turn without cache figures counts only when the provider reported caching before.
	if (previous === undefined || prompt <= 0 || (cacheRead + cacheWrite === 0 && !previous.reportedCache)) {
		return undefined;
	}
	const missedTokens = Math.min(previous.promptTokens, prompt) - cacheRead;
	if (missedTokens <= MISS_NOISE_FLOOR_TOKENS) {
		return undefined;
	}
	const paidTokens = input + cacheWrite;
	const paidPerToken = paidTokens > 0 ? (request.cost.input + request.cost.cacheWrite) / paidTokens : 0;
	const readPerToken = cacheRead > 0 ? request.cost.cacheRead / cacheRead : (book.get(modelKeyOf(request))?.cacheRead ?? 0) / 1_000_000;
	return { missedTokens, missedCost: missedTokens * Math.max(0, paidPerToken - readPerToken), idleMs: Math.max(0, request.at - previous.at) };
}

function asPrevious(request: RequestPoint, reportedCache: boolean): Previous | undefined {
	if (request.contextTokens <= 0) {
		return undefined;
	}
	return { promptTokens: request.contextTokens, modelKey: modelKeyOf(request), at: request.at, reportedCache: reportedCache || request.tokens.cacheRead + request.tokens.cacheWrite > 0, request: request.index };
}

/** Why the cache was cold: what the timeline shows between the previous request and this one. */
function causeOf(previous: Previous, request: RequestPoint, markers: readonly TimelineMarker[]): RebuildCause {
	if (previous.modelKey !== modelKeyOf(request)) {
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

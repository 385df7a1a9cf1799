/**
 * Whether the provider's cache likely still holds the session's last prompt at a given moment, and
 * what re-writing a token of it would cost beyond reading it: what the status bar's tooltip and the
 * Summarize Now confirmation say ("cache warm for 3 more minutes: pruning now re-writes ~180k tokens
 * (~$0.54)"). The caller knows how many tokens a prune would make the next request re-write (the
 * context after its first change). Pure.
 */
import type { CacheLifetime } from './cacheLifetimes';
import { paidRate, readRate, type TokenPrices } from './prices';
import type { RequestPoint } from './requestTypes';
import type { SessionTimeline } from './sessionTimeline';

export type CacheState =
	| {
		readonly kind: 'warm';
		/** Until the likely end of its lifetime. */
		readonly remainingMs: number;
		readonly lifetime: CacheLifetime;
		/** The prompt the cache holds (the last request's). */
		readonly cachedTokens: number;
		/** USD per token re-written instead of read. */
		readonly rewritePerToken: number;
	}
	| { readonly kind: 'expired'; readonly sinceMs: number; readonly lifetime: CacheLifetime }
	| { readonly kind: 'unknown' };

export function cacheStateAt(timeline: SessionTimeline, prices: readonly TokenPrices[], now: number): CacheState {
	return cacheStateOf(timeline.requests, timeline.requests.length, timeline.lifetimes, (request) => prices[request.index], now);
}

/** The same, over the first `count` requests (a ledger's), pricing only the request it needs. */
export function cacheStateOf(requests: readonly RequestPoint[], count: number, lifetimes: readonly CacheLifetime[], priceOf: (request: RequestPoint) => TokenPrices | undefined, now: number): CacheState {
	const last = lastTouch(requests, count);
	const lifetime = last && lifetimes[last.index];
	const price = last && priceOf(last);
	if (last === undefined || lifetime === undefined || price === undefined) {
		return { kind: 'unknown' };
	}
	const idle = now - last.at;
	if (idle > lifetime.likelyMs) {
		return { kind: 'expired', sinceMs: idle - lifetime.likelyMs, lifetime };
	}
	return { kind: 'warm', remainingMs: lifetime.likelyMs - idle, lifetime, cachedTokens: last.contextTokens, rewritePerToken: Math.max(0, paidRate(last, price) - readRate(last, price)) };
}

/** The last reply's recorded usage, and the last use of the cache (a reply, or Pi warming it), with that use's lifetime. */
export interface LastUse {
	/** The last assistant reply that recorded usage; undefined when only a `cache_warm` entry did. */
	readonly reply: RequestPoint | undefined;
	/** The request that last read or wrote the cache: the countdown starts at its time. */
	readonly touch: RequestPoint;
	readonly lifetime: CacheLifetime;
}

/** The session's last use of the provider's cache among the first `count` requests (the live countdown's start). */
export function lastUseOf(requests: readonly RequestPoint[], count: number, lifetimes: readonly CacheLifetime[]): LastUse | undefined {
	const touch = lastTouch(requests, count);
	const lifetime = touch && lifetimes[touch.index];
	if (touch === undefined || lifetime === undefined || !Number.isFinite(touch.at)) {
		return undefined;
	}
	let reply: RequestPoint | undefined;
	for (let i = Math.min(count, requests.length) - 1; i >= 0 && reply === undefined; i--) {
		const request = requests[i] as RequestPoint;
		if (request.kind === 'reply' && request.contextTokens > 0) {
			reply = request;
		}
	}
	return { reply, touch, lifetime };
}

function lastTouch(requests: readonly RequestPoint[], count: number): RequestPoint | undefined {
	for (let i = count - 1; i >= 0; i--) {
		const request = requests[i] as RequestPoint;
		if ((request.kind === 'reply' && request.contextTokens > 0) || request.usageKind === 'cache_warm') {
			return request;
		}
	}
	return undefined;
}

/**
 * Provider tokens the next request would write to the cache again if pruning changed the prompt from
 * the first pending tool result on: the cached prompt, less what comes before that change (the prompt
 * of the request that made the first pending call, and that request's reply), less what the prune
 * removes. Undefined when the request that made the call is not among the recorded ones.
 */
export function rewriteTokensAfter(requests: readonly RequestPoint[], count: number, cachedTokens: number, callEntryId: string, removedTokens: number): number | undefined {
	for (let i = count - 1; i >= 0; i--) {
		const request = requests[i] as RequestPoint;
		if (request.entryId === callEntryId) {
			return Math.max(0, cachedTokens - (request.contextTokens + request.tokens.output) - removedTokens);
		}
	}
	return undefined;
}

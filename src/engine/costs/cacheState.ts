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
	const last = lastTouch(timeline.requests);
	const lifetime = last && timeline.lifetimes[last.index];
	const price = last && prices[last.index];
	if (last === undefined || lifetime === undefined || price === undefined) {
		return { kind: 'unknown' };
	}
	const idle = now - last.at;
	if (idle > lifetime.likelyMs) {
		return { kind: 'expired', sinceMs: idle - lifetime.likelyMs, lifetime };
	}
	return { kind: 'warm', remainingMs: lifetime.likelyMs - idle, lifetime, cachedTokens: last.contextTokens, rewritePerToken: Math.max(0, paidRate(last, price) - readRate(last, price)) };
}

function lastTouch(requests: readonly RequestPoint[]): RequestPoint | undefined {
	for (let i = requests.length - 1; i >= 0; i--) {
		const request = requests[i] as RequestPoint;
		if ((request.kind === 'reply' && request.contextTokens > 0) || request.usageKind === 'cache_warm') {
			return request;
		}
	}
	return undefined;
}

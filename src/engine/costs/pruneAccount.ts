/**
 * Each prune, accounted: what it cost, what it saved on every later request, and when (whether) it
 * paid back. Arithmetic over the timeline, our engine's measures and the calibration; pure and
 * cheap (the renders are in `pruneMeasures.ts`). The model, in a user's words: docs/costs.md.
 *
 * - **Removed tokens** at a request: our estimate of what the prune took out of that request's
 *   context, times the calibration factor (so every figure is computed at the factor's low, middle
 *   and high value, and shown as a range).
 * - **Cost**: the first request after a prune finds the cache holding the previous request's prompt
 *   (`P`); the prune changed it from some point on, so the request read only `k` tokens (its cache
 *   read) and paid again for the rest. Of the `P − k` tokens the cache no longer matched, `R` were
 *   removed and the others re-written: `rewritten = P − k − R` (at most what it paid for outside the
 *   cache). Without the prune they would have been read, so the cost is `rewritten × (paid rate −
 *   read rate)`, with the rates the request itself paid. When the cache was cold anyway (an idle gap
 *   longer than its lifetime, another model, the first request) the request re-wrote everything in
 *   any case: the prune cost nothing. The summarizer calls of the flush are added (pi-condense's own
 *   stats; Pi does not count them in the session's totals).
 * - **Saving** at each request from the first on: `R ×` what the request would have paid for those
 *   tokens: the cache-read price when its cache was warm, the price it paid for uncached tokens when
 *   it was cold.
 * - **Balance**: savings so far − cost; it paid back at the first request where the balance is not
 *   negative.
 */
import type { Calibration } from './calibration';
import { cacheExpiredAfter } from './cacheLifetimes';
import type { PruneMarker } from './markerTypes';
import { paidRate, readRate, type TokenPrices } from './prices';
import type { EpochMeasure, PruneMeasures, ReplyMeasure } from './pruneMeasureTypes';
import { modelKeyOf, type RequestPoint } from './requestTypes';
import type { SessionTimeline } from './sessionTimeline';
import { paced, type Steps } from '../steps';

/** A figure at the calibration's low, middle and high factor (low ≤ mid ≤ high). */
export interface Range {
	readonly low: number;
	readonly mid: number;
	readonly high: number;
}

/** Why the cache held nothing a prune could break. */
export type ColdReason = 'expired' | 'model-change' | 'first-request' | 'no-cache';

export type PruneVerdict =
	| { readonly kind: 'paid-back'; readonly afterRequests: number; readonly atRequest: number }
	| { readonly kind: 'not-paid-back'; readonly requestsAfter: number }
	| { readonly kind: 'free'; readonly reason: ColdReason | 'nothing-rewritten' }
	| { readonly kind: 'not-measured' };

export interface PruneAccount {
	readonly prune: PruneMarker;
	/** The first request that was sent with it (index in the timeline's requests). */
	readonly firstRequest: number | undefined;
	/** Why that request found the cache cold, if it did. */
	readonly cold: ColdReason | undefined;
	/** Provider tokens it took out of the first request's context. */
	readonly removedTokens: Range;
	readonly rewrittenTokens: Range;
	/** USD: the re-write beyond what the request paid anyway. */
	readonly cacheCost: Range;
	readonly summarizerCost: number;
	/** USD over every request that was sent with it. */
	readonly savings: Range;
	/** savings − cache cost − summarizer cost. */
	readonly net: Range;
	/** The running balance (middle factor) after each request sent with it. */
	readonly balance: readonly { readonly request: number; readonly usd: number }[];
	readonly verdict: PruneVerdict;
}

/** Per reply: the cache state it found and the prices it paid. */
interface ReplyFacts {
	readonly measure: ReplyMeasure;
	readonly request: RequestPoint;
	readonly cold: ColdReason | undefined;
	/** The prompt the cache held for it (the previous request of the same model). */
	readonly cachedPrompt: number;
	readonly paid: number;
	readonly read: number;
}

/** In steps: a long session has tens of thousands of requests, each crediting every prune in force. */
export function* pruneAccountsSteps(timeline: SessionTimeline, measures: PruneMeasures, calibration: Calibration, prices: readonly TokenPrices[]): Steps<PruneAccount[]> {
	const facts = yield* replyFactsSteps(timeline, measures, prices);
	const perFactor = [
		yield* accountAtSteps(facts, measures, calibration.low, false),
		yield* accountAtSteps(facts, measures, calibration.factor, true),
		yield* accountAtSteps(facts, measures, calibration.high, false),
	];
	return measures.prunes.map((prune, index) => {
		const [low, mid, high] = perFactor.map((accounts) => accounts[index] as FactorAccount) as [FactorAccount, FactorAccount, FactorAccount];
		const range = (pick: (account: FactorAccount) => number): Range => sorted(pick(low), pick(mid), pick(high));
		const cacheCost = range((account) => account.cacheCost);
		const savings = range((account) => account.savings);
		return {
			prune,
			firstRequest: mid.firstRequest,
			cold: mid.cold,
			removedTokens: range((account) => account.removed),
			rewrittenTokens: range((account) => account.rewritten),
			cacheCost,
			summarizerCost: prune.summarizerCost,
			savings,
			net: range((account) => account.savings - account.cacheCost - prune.summarizerCost),
			balance: mid.balance,
			verdict: verdictOf(mid, prune.summarizerCost),
		};
	});
}

interface FactorAccount {
	firstRequest: number | undefined;
	cold: ColdReason | undefined;
	removed: number;
	rewritten: number;
	cacheCost: number;
	savings: number;
	requestsWith: number;
	paidBackAt: { readonly afterRequests: number; readonly request: number } | undefined;
	readonly balance: { request: number; usd: number }[];
}

/** One factor's accounts; the running balance is kept for one of them only (`withBalance`). */
function* accountAtSteps(facts: readonly ReplyFacts[], measures: PruneMeasures, factor: number, withBalance: boolean): Steps<FactorAccount[]> {
	const accounts: FactorAccount[] = measures.prunes.map(() => ({ firstRequest: undefined, cold: undefined, removed: 0, rewritten: 0, cacheCost: 0, savings: 0, requestsWith: 0, paidBackAt: undefined, balance: [] }));
	for (let at = 0; at < facts.length; at++) {
		if (paced(at)) {
			yield;
		}
		const fact = facts[at] as ReplyFacts;
		const epoch = measures.epochs[fact.measure.epoch] as EpochMeasure;
		const arriving = [...epoch.removed.keys()].filter((index) => (accounts[index] as FactorAccount).firstRequest === undefined);
		chargeRewrite(fact, arriving.map((index) => [accounts[index] as FactorAccount, (epoch.removed.get(index) ?? 0) * factor]));
		const price = fact.cold === undefined ? fact.read : fact.paid;
		for (const [index, removed] of epoch.removed) {
			const account = accounts[index] as FactorAccount;
			account.savings += removed * factor * price;
			account.requestsWith++;
			if (account.paidBackAt === undefined && account.savings - account.cacheCost - (measures.prunes[index] as PruneMarker).summarizerCost >= 0) {
				account.paidBackAt = { afterRequests: account.requestsWith, request: fact.request.index };
			}
			if (withBalance) {
				account.balance.push({ request: fact.request.index, usd: account.savings - account.cacheCost - (measures.prunes[index] as PruneMarker).summarizerCost });
			}
		}
	}
	return accounts;
}

/**
 * The first request after one or more prunes: the re-write they caused together, shared among them in
 * proportion to what each removed.
 */
function chargeRewrite(fact: ReplyFacts, arriving: readonly (readonly [FactorAccount, number])[]): void {
	if (arriving.length === 0) {
		return;
	}
	const removed = arriving.reduce((sum, [, tokens]) => sum + tokens, 0);
	const { input, cacheRead, cacheWrite } = fact.request.tokens;
	const rewritten = fact.cold === undefined ? Math.min(input + cacheWrite, Math.max(0, fact.cachedPrompt - cacheRead - removed)) : 0;
	const cost = rewritten * Math.max(0, fact.paid - fact.read);
	for (const [account, tokens] of arriving) {
		const share = removed > 0 ? tokens / removed : 1 / arriving.length;
		account.firstRequest = fact.request.index;
		account.cold = fact.cold;
		account.removed = tokens;
		account.rewritten = rewritten * share;
		account.cacheCost = cost * share;
	}
}

function* replyFactsSteps(timeline: SessionTimeline, measures: PruneMeasures, prices: readonly TokenPrices[]): Steps<ReplyFacts[]> {
	const facts: ReplyFacts[] = [];
	let previous: RequestPoint | undefined;
	/** Models whose requests reported cache activity so far (a provider that never does keeps no cache a prune could break). */
	const caching = new Set<string>();
	let next = 0;
	for (let i = 0; i < timeline.requests.length; i++) {
		if (paced(i)) {
			yield;
		}
		const request = timeline.requests[i] as RequestPoint;
		if (request.tokens.cacheRead + request.tokens.cacheWrite > 0) {
			caching.add(modelKeyOf(request));
		}
		// The measures are one per reply, in request order.
		while (next < measures.replies.length && (measures.replies[next] as ReplyMeasure).request < request.index) {
			next++;
		}
		const measure = measures.replies[next]?.request === request.index ? measures.replies[next] : undefined;
		if (measure !== undefined) {
			const price = prices[request.index] as TokenPrices;
			const cold = coldReason(timeline, previous, request) ?? (caching.has(modelKeyOf(request)) ? undefined : 'no-cache');
			facts.push({ measure, request, cold, cachedPrompt: previous?.contextTokens ?? 0, paid: paidRate(request, price), read: readRate(request, price) });
		}
		if (request.kind === 'reply' || request.usageKind === 'cache_warm') {
			previous = request;
		}
	}
	return facts;
}

function coldReason(timeline: SessionTimeline, previous: RequestPoint | undefined, request: RequestPoint): ColdReason | undefined {
	if (previous === undefined) {
		return 'first-request';
	}
	if (modelKeyOf(previous) !== modelKeyOf(request)) {
		return 'model-change';
	}
	const lifetime = timeline.lifetimes[previous.index];
	return lifetime !== undefined && cacheExpiredAfter(lifetime, request.at - previous.at) ? 'expired' : undefined;
}

function verdictOf(account: FactorAccount, summarizerCost: number): PruneVerdict {
	if (account.firstRequest === undefined) {
		return { kind: 'not-measured' };
	}
	if (account.cacheCost + summarizerCost <= 0) {
		return { kind: 'free', reason: account.cold ?? 'nothing-rewritten' };
	}
	if (account.paidBackAt !== undefined) {
		return { kind: 'paid-back', afterRequests: account.paidBackAt.afterRequests, atRequest: account.paidBackAt.request };
	}
	return { kind: 'not-paid-back', requestsAfter: account.requestsWith };
}

function sorted(a: number, b: number, c: number): Range {
	const [low, mid, high] = [a, b, c].sort((x, y) => x - y) as [number, number, number];
	return { low, mid, high };
}

/** "paid back after 6 requests", "not paid back: the session ended 2 requests later", "free: the cache had expired". */
export function verdictText(verdict: PruneVerdict): string {
	switch (verdict.kind) {
		case 'paid-back':
			return `paid back after ${verdict.afterRequests} request${verdict.afterRequests === 1 ? '' : 's'}`;
		case 'not-paid-back':
			return `not paid back: the session ended ${verdict.requestsAfter} request${verdict.requestsAfter === 1 ? '' : 's'} later`;
		case 'free':
			return `free: ${FREE_REASONS[verdict.reason]}`;
		case 'not-measured':
			return 'not measured: no request was sent with it';
	}
}

const FREE_REASONS: Readonly<Record<ColdReason | 'nothing-rewritten', string>> = {
	'expired': 'the cache had expired',
	'model-change': 'the model changed, so the cache was rebuilt anyway',
	'first-request': 'no earlier request had filled the cache',
	'no-cache': 'the provider reported no prompt cache',
	'nothing-rewritten': 'nothing cached had to be written again',
};

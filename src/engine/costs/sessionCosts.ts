/**
 * A session's costs: its timeline, cache rebuilds, summary and (the long part) each prune's account,
 * in two passes a panel can paint between: `sessionTimelineSteps` and `sessionSummary` without
 * prune accounts first (one pass over the entries), then `sessionCostsSteps` with them. Pure.
 *
 * @example
 * const costs = runSteps(sessionCostsSteps({ model, rules, config, prices: NO_PRICES }));
 * costs.summary.spend.total // USD, as Pi's /session counts it
 * costs.accounts.map((account) => verdictText(account.verdict))
 */
import type { ContextPruneConfig } from '../config/types';
import type { ReleaseRules } from '../release/releases';
import type { SessionModel } from '../session/model';
import type { Steps } from '../steps';
import { cacheRebuildsSteps, type CacheRebuild, type RebuildCause } from './cacheRebuilds';
import { calibrate, type Calibration } from './calibration';
import { requestPrices, type PriceBook, type TokenPrices } from './prices';
import { pruneAccountsSteps, type PruneAccount, type Range } from './pruneAccount';
import { pruneMeasuresSteps, type PruneMeasures } from './pruneMeasures';
import { modelKeyOf, sessionTimelineSteps, type SessionTimeline } from './sessionTimeline';
import type { UsageSums } from './requestTypes';

export interface CostsInputs {
	readonly model: SessionModel;
	/** The release whose entries the session holds (the followed one). */
	readonly rules: ReleaseRules;
	/** The user's `contextPrune` settings; the renders run with pruning on. */
	readonly config: ContextPruneConfig;
	/** Catalog prices for requests that recorded none. */
	readonly prices: PriceBook;
}

export interface CostSummary {
	readonly requests: number;
	/** Conversation requests (assistant replies). */
	readonly replies: number;
	readonly models: readonly string[];
	readonly tokens: Pick<UsageSums, 'input' | 'output' | 'cacheRead' | 'cacheWrite'>;
	/** USD as recorded, by part; `total` is Pi's session cost. */
	readonly spend: { readonly input: number; readonly cacheRead: number; readonly cacheWrite: number; readonly output: number; readonly total: number };
	/** Cache read / (input + cache read + cache write): the share of prompt tokens the cache served. */
	readonly cacheHitRate: number;
	readonly rebuilds: { readonly count: number; readonly tokens: number; readonly cost: number; readonly byCause: Readonly<Partial<Record<RebuildCause, number>>> };
	/** Undefined until the prune accounts are computed. */
	readonly pruning: PruningSummary | undefined;
}

export interface PruningSummary {
	readonly prunes: number;
	readonly paidBack: number;
	readonly notPaidBack: number;
	readonly free: number;
	readonly notMeasured: number;
	readonly cacheCost: Range;
	readonly summarizerCost: number;
	readonly savings: Range;
	/** savings − costs: what pruning saved (negative: what it cost), as a range. */
	readonly net: Range;
	readonly calibration: Calibration;
}

export interface SessionCosts {
	readonly timeline: SessionTimeline;
	readonly rebuilds: readonly CacheRebuild[];
	readonly prices: readonly TokenPrices[];
	readonly measures: PruneMeasures;
	readonly calibration: Calibration;
	readonly accounts: readonly PruneAccount[];
	readonly summary: CostSummary;
}

/** The first pass: timeline, rebuilds and the summary without prune accounts. */
export function* sessionOverviewSteps(entries: SessionModel['entries'], prices: PriceBook): Steps<{ timeline: SessionTimeline; rebuilds: CacheRebuild[]; summary: CostSummary }> {
	const timeline = yield* sessionTimelineSteps(entries);
	const rebuilds = yield* cacheRebuildsSteps(entries, timeline.markers, prices);
	return { timeline, rebuilds, summary: sessionSummary(timeline, rebuilds, undefined) };
}

export function* sessionCostsSteps(inputs: CostsInputs): Steps<SessionCosts> {
	const { timeline, rebuilds } = yield* sessionOverviewSteps(inputs.model.entries, inputs.prices);
	const measures = yield* pruneMeasuresSteps({ model: inputs.model, timeline, rules: inputs.rules, config: { ...inputs.config, enabled: true } });
	const calibration = calibrate(measures.replies, timeline.requests);
	const prices = requestPrices(timeline.requests, inputs.prices);
	const accounts = yield* pruneAccountsSteps(timeline, measures, calibration, prices);
	return { timeline, rebuilds, prices, measures, calibration, accounts, summary: sessionSummary(timeline, rebuilds, { accounts, calibration }) };
}

export function sessionSummary(timeline: SessionTimeline, rebuilds: readonly CacheRebuild[], pruning: { readonly accounts: readonly PruneAccount[]; readonly calibration: Calibration } | undefined): CostSummary {
	const { sums } = timeline;
	const prompt = sums.input + sums.cacheRead + sums.cacheWrite;
	const byCause: Partial<Record<RebuildCause, number>> = {};
	for (const rebuild of rebuilds) {
		byCause[rebuild.cause] = (byCause[rebuild.cause] ?? 0) + 1;
	}
	return {
		requests: sums.requests,
		replies: timeline.requests.filter((request) => request.kind === 'reply').length,
		models: [...new Set(timeline.requests.filter((request) => request.kind === 'reply' || request.kind === 'usage').map(modelKeyOf))],
		tokens: { input: sums.input, output: sums.output, cacheRead: sums.cacheRead, cacheWrite: sums.cacheWrite },
		spend: { input: sums.costInput, cacheRead: sums.costCacheRead, cacheWrite: sums.costCacheWrite, output: sums.costOutput, total: sums.cost },
		cacheHitRate: prompt > 0 ? sums.cacheRead / prompt : 0,
		rebuilds: {
			count: rebuilds.length,
			tokens: rebuilds.reduce((sum, rebuild) => sum + rebuild.missedTokens, 0),
			cost: rebuilds.reduce((sum, rebuild) => sum + rebuild.missedCost, 0),
			byCause,
		},
		pruning: pruning && pruningSummary(pruning.accounts, pruning.calibration),
	};
}

function pruningSummary(accounts: readonly PruneAccount[], calibration: Calibration): PruningSummary {
	const add = (pick: (account: PruneAccount) => Range): Range => ({
		low: accounts.reduce((sum, account) => sum + pick(account).low, 0),
		mid: accounts.reduce((sum, account) => sum + pick(account).mid, 0),
		high: accounts.reduce((sum, account) => sum + pick(account).high, 0),
	});
	const count = (kind: PruneAccount['verdict']['kind']): number => accounts.filter((account) => account.verdict.kind === kind).length;
	return {
		prunes: accounts.length,
		paidBack: count('paid-back'),
		notPaidBack: count('not-paid-back'),
		free: count('free'),
		notMeasured: count('not-measured'),
		cacheCost: add((account) => account.cacheCost),
		summarizerCost: accounts.reduce((sum, account) => sum + account.summarizerCost, 0),
		savings: add((account) => account.savings),
		net: add((account) => account.net),
		calibration,
	};
}

/**
 * A session's summary: spend by part, the cache hit rate, the cache rebuilds and (once every prune is
 * accounted) pruning's net effect as a range. Arithmetic over the timeline; pure.
 */
import type { CacheRebuild, RebuildCause } from './cacheRebuilds';
import type { Calibration } from './calibration';
import type { PruneAccount, Range } from './pruneAccount';
import { modelKeyOf, type UsageSums } from './requestTypes';
import type { SessionTimeline } from './sessionTimeline';

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

export function sessionSummary(timeline: SessionTimeline, rebuilds: readonly CacheRebuild[], pruning: { readonly accounts: readonly PruneAccount[]; readonly calibration: Calibration } | undefined): CostSummary {
	const { sums } = timeline;
	const prompt = sums.input + sums.cacheRead + sums.cacheWrite;
	const byCause: Partial<Record<RebuildCause, number>> = {};
	for (const rebuild of rebuilds) {
		byCause[rebuild.cause] = (byCause[rebuild.cause] ?? 0) + 1;
	}
	let replies = 0;
	const models = new Set<string>();
	for (const request of timeline.requests) {
		replies += request.kind === 'reply' ? 1 : 0;
		if (request.kind === 'reply' || request.kind === 'usage') {
			models.add(modelKeyOf(request));
		}
	}
	return {
		requests: sums.requests,
		replies,
		models: [...models],
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

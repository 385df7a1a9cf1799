/**
 * A session's costs: its overview (timeline, cache rebuilds, summary: the ledger's one pass, what a
 * panel paints first) and, the long part, each prune's account. Pure.
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
import type { CacheRebuild } from './cacheRebuilds';
import { calibrateSteps, type Calibration } from './calibration';
import { CostsLedger } from './costsLedger';
import { requestPricesSteps, type PriceBook, type TokenPrices } from './prices';
import { pruneAccountsSteps, type PruneAccount } from './pruneAccount';
import { pruneMeasuresSteps } from './pruneMeasures';
import type { PruneMeasures } from './pruneMeasureTypes';
import { sessionSummary, type CostSummary } from './sessionSummary';
import type { SessionTimeline } from './sessionTimeline';

export interface CostsInputs {
	readonly model: SessionModel;
	/** The release whose entries the session holds (the followed one). */
	readonly rules: ReleaseRules;
	/** The user's `contextPrune` settings; the renders run with pruning on. */
	readonly config: ContextPruneConfig;
	/** Catalog prices for requests that recorded none. */
	readonly prices: PriceBook;
	/** The session's ledger when one is kept (the store keeps one per open session): only what it has not read is read. */
	readonly ledger?: CostsLedger;
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

export function* sessionCostsSteps(inputs: CostsInputs): Steps<SessionCosts> {
	const ledger = yield* (inputs.ledger ?? CostsLedger.empty()).extendSteps(inputs.model.entries);
	const { timeline, rebuilds } = ledger.overview(inputs.prices);
	const measures = yield* pruneMeasuresSteps({ model: inputs.model, timeline, rules: inputs.rules, config: { ...inputs.config, enabled: true } });
	const calibration = yield* calibrateSteps(measures.replies, timeline.requests);
	const prices = yield* requestPricesSteps(timeline.requests, inputs.prices);
	const accounts = yield* pruneAccountsSteps(timeline, measures, calibration, prices);
	return { timeline, rebuilds, prices, measures, calibration, accounts, summary: sessionSummary(timeline, rebuilds, { accounts, calibration }) };
}

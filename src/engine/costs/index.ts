/**
 * Public API of the costs engine: what a session's requests cost, what each prune cost and saved,
 * and the same across sessions. Pure (no I/O; prices come in as a `PriceBook`). docs/costs.md says
 * what the figures mean.
 */
export { requestPointsSteps, requestOf } from './requestPoints';
export { addRequest, EMPTY_SUMS, totalTokensOf, type RequestCost, type RequestKind, type RequestPoint, type RequestTokens, type UsageSums } from './requestTypes';
export { CACHE_LIFETIMES, cacheLifetimeOf, cacheExpiredAfter, type CacheLifetime, type CacheLifetimeRule } from './cacheLifetimes';
export type * from './markerTypes';
export { sessionTimelineSteps, markersBetween, modelKeyOf, type SessionTimeline } from './sessionTimeline';
export { cacheRebuildsSteps, MISS_NOISE_FLOOR_TOKENS, type CacheRebuild, type RebuildCause } from './cacheRebuilds';
export { requestPrices, paidRate, readRate, NO_PRICES, type ModelPrice, type PriceBook, type TokenPrices } from './prices';
export { pruneMeasuresSteps, type EpochMeasure, type MeasureInputs, type PruneMeasures, type ReplyMeasure } from './pruneMeasures';
export { calibrate, type Calibration } from './calibration';
export { pruneAccountsSteps, verdictText, type ColdReason, type PruneAccount, type PruneVerdict, type Range } from './pruneAccount';
export { sessionCostsSteps, sessionOverviewSteps, sessionSummary, type CostsInputs, type CostSummary, type PruningSummary, type SessionCosts } from './sessionCosts';
export { cacheStateAt, type CacheState } from './cacheState';
export {
	compareSettings, distinctRequests, historyReport, requestKey, MIN_SESSIONS_PER_SETTING,
	type CostEventRow, type HistoryGroup, type HistoryOptions, type HistoryReport, type ObservedSettings, type RequestRow, type SessionRow, type SettingName, type SettingsComparison,
} from './history';
export { observedSettings, sessionRows, type SessionRowsInputs } from './historyRows';

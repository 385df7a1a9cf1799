/**
 * Public API of the costs engine: what a session's requests cost, what each prune cost and saved,
 * and the same across sessions. Pure (no I/O; prices come in as a `PriceBook`). docs/costs.md says
 * what the figures mean.
 */
export { requestOf } from './requestPoints';
export { addRequest, EMPTY_SUMS, modelKeyOf, totalTokensOf, type RequestCost, type RequestKind, type RequestPoint, type RequestTokens, type UsageSums } from './requestTypes';
export { CACHE_LIFETIMES, cacheFamilyOf, cacheLifetimeOf, cacheExpiredAfter, type CacheFamily, type CacheLifetime, type CacheLifetimeRule } from './cacheLifetimes';
export { markersBetween } from './markerTypes';
export type * from './markerTypes';
export type { SessionTimeline } from './sessionTimeline';
export { CostsLedger, sessionOverviewSteps, sessionTimelineSteps, type SessionOverview } from './costsLedger';
export { MISS_NOISE_FLOOR_TOKENS, type CacheRebuild, type RebuildCause } from './cacheRebuilds';
export { requestPricesSteps, paidRate, readRate, unpricedModelsSteps, NO_PRICES, type ModelPrice, type PriceBook, type TokenPrices } from './prices';
export { pruneMeasuresSteps } from './pruneMeasures';
export type { EpochMeasure, MeasureInputs, PruneMeasures, ReplyMeasure } from './pruneMeasureTypes';
export { calibrateSteps, type Calibration } from './calibration';
export { pruneAccountsSteps, verdictText, type ColdReason, type PruneAccount, type PruneVerdict, type Range } from './pruneAccount';
export { sessionSummary, type CostSummary, type PruningSummary } from './sessionSummary';
export { sessionCostsSteps, type CostsInputs, type SessionCosts } from './sessionCosts';
export { cacheStateAt, cacheStateOf, lastUseOf, rewriteTokensAfter, type CacheState, type LastUse } from './cacheState';
export {
	distinctRequests, historyReport, historyReportOf, requestKey,
	type CostEventRow, type HistoryGroup, type HistoryOptions, type HistoryPart, type HistoryReport, type ObservedSettings, type RequestRow, type SessionRow,
} from './history';
export { compareSettings, MIN_SESSIONS_PER_SETTING, type SettingName, type SettingsComparison } from './historySettings';
export { accountsBasis, observedSettings, sessionRows, storedAccountsOf, type SessionRowsInputs } from './historyRows';
export { indexedHistorySteps, type IndexedRequest, type IndexedSession, type IndexedSessionInfo, type IndexedSource, type StoredAccounts } from './indexedHistory';
export { copiesSteps, digestedHistorySteps, sessionDigestSteps, sharedRequestLines, type DigestedSession, type DigestRebuild, type MadeDigest, type RemovedRequest, type SessionCopies, type SessionDigest } from './historyDigest';
export { type UsageBucket } from './usageBuckets';
export { accountLines, markerText, netText, pruneNowCacheText, pruneWhat, settingText, summaryLines, usd, usdRange } from './costsTexts';
export { costsViewSteps, runningBalanceSteps, type CostsColumns, type CostsMarkerView, type CostsView, type PruneView } from './costsView';
export { callEntryIdOf, pruneNowCacheLine, type PruneNowInputs } from './pruneNow';

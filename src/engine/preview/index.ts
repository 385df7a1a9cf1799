/**
 * Public API of the context preview model: rows, token bars, cache impact, what-if, search and
 * reveal. Pure.
 */
export type * from './types';
export type * from './snapshotTypes';
export { snapshotBaseSteps, type SnapshotBase, type BaseInputs } from './snapshotBase';
export { computePreviewSteps, type WhatIfResult, type WhatIfOptions } from './computePreview';
export { messageBlocks, blockText } from './messageBlocks';
export { DEFAULT_ROW_BOUNDS, type RowBounds } from './previewRow';
export { ViewRows } from './viewRows';
export { cacheImpactSteps, commonPrefixSteps, type CacheInputs, type PricingInfo } from './cacheImpact';
export { whatIfSettings, withWhatIf, whatIfChanges, sanitizeOverrides, type WhatIfOverrides } from './whatIf';
export { searchMessagesSteps, SEARCH_HIT_LIMIT, type SearchHit, type SearchOptions, type SearchResult } from './searchMessages';
export { cachedArgsText, prettyArgs, type ArgsText } from './argsText';
export { locateTarget, type RowLocation } from './locateTarget';
export { simulateWindowSteps, type WindowSimulation } from './simulateWindow';
export { estimateFlush, summaryRatioSteps, ESTIMATE_MARGIN, SUMMARY_CHARS_PER_CALL, TYPICAL_SUMMARY_RATIO, type EstimateInput, type EstimatePorts, type FlushEstimate } from './flushEstimate';
export { sentAfterDraftsSteps, type SentBefore, type SentChange } from './sentAfterDrafts';

/**
 * Public API of the flush engine: pi-condense's flush pipeline and chain compression as pure
 * planning behind the `Summarizer`, hashing and blob ports, the prompts, the offline extractive
 * summarizer and the flush triggers. Pure.
 */
export { runFlush } from './runFlush';
export {
	DEFAULT_CONCURRENCY, type FlushMode, type FlushPorts, type FlushReport, type FlushRequest, type FlushResult, type FlushStatus,
} from './flushTypes';
export { concurrencySetting, MAX_CONCURRENCY } from './concurrency';
export type { BatchSkipReason, FlushProgress, ProgressSink } from './flushProgress';
export { NoticeList, SkippedBatchNotes } from './noticeList';
export { normalizeForHash, toolResultHash, type ContentHasher } from './contentHash';
export type { SpillWriter } from './spillPhase';
export { headPreview } from './headPreview';
export { spillBlobName } from './spillNames';
export { batchPrompt, serializeBatch, callLabel, RESULT_CHAR_CAP } from './prompt/batchPrompt';
export { rangePrompt } from './prompt/rangePrompt';
export { rewriteLabels } from './prompt/labelRewrite';
export * as notices from './notices';
export { offlineSummarizer, OFFLINE_MODEL, OFFLINE_HEADER } from './offline/extractiveSummarizer';
export { FALLBACK_COOLDOWN_MS, withSummarizerFallback } from './summarizerFallback';
export { budgetTrigger, readContextUsage, contextTokens, type BudgetTrigger, type ContextUsageReading } from './triggers/budgetTrigger';
export { idleFlushDecision, type IdleFlushDecision, type IdleFlushInput } from './triggers/idleTrigger';
export { flushAccount } from './flushAccount';
export { mapLimited } from './mapLimited';
export { DISABLED_NOTICE, nothingFlushedNotice, offlineNotice } from './notices';

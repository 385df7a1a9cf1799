/**
 * pi-condense's session payloads (the `context-prune-*` entries), with field names exactly as
 * pi-condense 2.0.0 writes them (its `types.ts`). Types and constants only.
 *
 * Every shape here is also what our own writers must produce, so that real pi-condense running
 * inside Pi rebuilds the entries we append.
 */

export const CUSTOM_TYPE_SUMMARY = 'context-prune-summary';
export const CUSTOM_TYPE_INDEX = 'context-prune-index';
export const CUSTOM_TYPE_DEDUP_ALIAS = 'context-prune-dedup-alias';
export const CUSTOM_TYPE_CHAIN = 'context-prune-chain';
export const CUSTOM_TYPE_FRONTIER = 'context-prune-frontier';
export const CUSTOM_TYPE_STATS = 'context-prune-stats';
export const CUSTOM_TYPE_DIAGNOSTIC = 'context-prune-diagnostic';
/** 2.7.0+: one per flush attempt, write-only (never read back). */
export const CUSTOM_TYPE_FLUSH_METRICS = 'context-prune-flush-metrics';

/** One summarized (or spilled) tool call, with its full original output. */
export interface ToolCallRecord {
	readonly toolCallId: string;
	readonly toolName: string;
	readonly args: Readonly<Record<string, unknown>>;
	/** Full result text; `''` for a spilled record (the body is in the blob file). */
	readonly resultText: string;
	readonly isError: boolean;
	readonly turnIndex: number;
	/** Epoch ms of the capture (for a spilled record: the tool result's own timestamp). */
	readonly timestamp: number;
	/** 2.6.0+: the `timestamp` of the tool result message this record was captured from. */
	readonly resultTimestamp?: number;
	/** Absolute path of the blob, as written by the run that spilled it. Never read directly. */
	readonly spillPath?: string;
	/** UTF-8 byte length of the spilled body. */
	readonly spillBytes?: number;
	/** Head of the spilled body kept inline. */
	readonly resultPreview?: string;
	/** SHA-1 of the full body, for dedup without rehashing. */
	readonly contentHash?: string;
}

/** `data` of a `context-prune-index` custom entry. */
export interface IndexEntryData {
	readonly toolCalls: readonly ToolCallRecord[];
	/** 2.9.0+: written by the deterministic compression of an uncovered chain. */
	readonly backfilled?: true;
	/** 2.9.0+, with `backfilled`: the `tN` given to each backfilled record. */
	readonly refs?: readonly SummaryToolCallRef[];
}

export interface SummaryToolCallRef {
	readonly shortId: string;
	readonly toolCallId: string;
	/** 2.6.0+: the result timestamp of the occurrence the ref names. */
	readonly resultTimestamp?: number;
}

/** `details` of a `context-prune-summary` custom message. */
export interface SummaryMessageDetails {
	readonly toolCallRefs: readonly SummaryToolCallRef[];
	readonly toolNames: readonly string[];
	readonly turnIndex: number;
	readonly timestamp: number;
}

/** `data` of a `context-prune-dedup-alias` custom entry. */
export interface DedupAliasEntryData {
	readonly newToolCallId: string;
	readonly originalToolCallId: string;
	readonly hash?: string;
	/** 2.6.0+: result timestamps of the duplicate and of the original (absent for a legacy original). */
	readonly newResultTimestamp?: number;
	readonly originalResultTimestamp?: number;
}

/** `data` of a `context-prune-chain` custom entry: one compressed closed chain. */
export interface ChainCompressionEntry {
	/** `b1`, `b2`, … */
	readonly blockId: string;
	readonly startUserTimestamp: number;
	readonly droppedToolCallIds: readonly string[];
	readonly protectedToolCallIds?: readonly string[];
	/** Null for an interrupted chain (never compressed by pi-condense). */
	readonly finalAssistantTimestamp: number | null;
	readonly toolRefs: readonly string[];
	readonly compressedAt: number;
	readonly rangeSummaryText?: string;
	/** 2.9.0: `deterministic` when `rangeSummaryText` was built from the index without an LLM call. */
	readonly bodySource?: 'deterministic';
	/** 2.6.0+: occurrence keys of the results inside the chain (written only when non-empty). */
	readonly droppedOccurrenceKeys?: readonly string[];
}

export type PruneFrontierOutcome = 'summarized' | 'skipped-oversized' | 'skipped-trivial' | 'skipped-deduped';

/** `data` of a `context-prune-frontier` custom entry; the last one on the branch wins. */
export interface PruneFrontier {
	readonly lastAttemptedToolCallId: string;
	readonly lastAttemptedToolName: string;
	readonly lastAttemptedTurnIndex: number;
	readonly lastAttemptedTimestamp: number;
	readonly attemptedBatchCount: number;
	readonly attemptedToolCallCount: number;
	readonly rawCharCount: number;
	readonly summaryCharCount: number;
	readonly outcome: PruneFrontierOutcome;
	/** 2.4.3 only: assistants older than this lose their thinking at render time. */
	readonly thinkingStripBoundaryTimestamp?: number;
}

/** `data` of a `context-prune-stats` custom entry: a full snapshot; the last one wins. */
export interface SummarizerStats {
	readonly totalInputTokens: number;
	readonly totalOutputTokens: number;
	readonly totalCost: number;
	readonly callCount: number;
	readonly chainsCompressed: number;
	readonly rangesSummarized: number;
}


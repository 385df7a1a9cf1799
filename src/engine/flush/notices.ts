/**
 * Every notice text of a flush, byte-exact with pi-condense's `/pruner now`, `/pruner compact` and
 * `flushPending` where it has one (plural forms included), and plain where it does not. Pure.
 */
const plural = (n: number, one: string, many: string): string => (n === 1 ? one : many);
const calls = (n: number): string => `${n} tool ${plural(n, 'call', 'calls')}`;

export const DISABLED_NOTICE = 'Context pruning is disabled. Run /pruner on first.';
export const NOTHING_PENDING_NOTICE = 'pruner: nothing pending — no batches to summarize';

export function nothingFlushedNotice(reason: 'empty' | 'summarizer-failed' | 'failed' | 'aborted', error?: string): string {
	return `pruner: nothing flushed — ${reason}${error === undefined ? '' : ` (${error})`}`;
}

export function summarizationFailedNotice(error: string): string {
	return `pruner: summarization failed: ${error}`;
}

export function prunedNotice(toolCalls: number, batches: number, summaryChars: number, rawChars: number): string {
	return `pruner: pruned ${calls(toolCalls)} from ${batches} ${plural(batches, 'batch', 'batches')} — summary ${summaryChars} chars vs ${rawChars} raw chars`;
}

export function skippedOversizedNotice(toolCalls: number, summaryChars: number, rawChars: number): string {
	return `pruner: skipped pruning ${calls(toolCalls)} — summary was ${summaryChars} chars vs ${rawChars} raw chars; frontier advanced past this range`;
}

export function skippedTrivialNotice(toolCalls: number, rawChars: number, minBatchChars: number): string {
	return `pruner: skipped ${toolCalls} trivial tool ${plural(toolCalls, 'call', 'calls')} — only ${rawChars} raw chars below minBatchChars=${minBatchChars}; no LLM call made; frontier advanced past this range`;
}

export function dedupedNotice(toolCalls: number, rawChars: number): string {
	return `pruner: deduplicated ${calls(toolCalls)} (${rawChars} raw chars) against earlier prunes; no LLM call made; frontier advanced past this range`;
}

export function batchOversizedNotice(turnIndex: number, toolCalls: number, summaryChars: number, rawChars: number): string {
	return `pruner: skipped pruning turn ${turnIndex} (${calls(toolCalls)}) — summary was ${summaryChars} chars vs ${rawChars} raw chars; frontier advanced past this range`;
}

export function batchTrivialNotice(turnIndex: number, toolCalls: number, rawChars: number, minBatchChars: number): string {
	return `pruner: skipped pruning turn ${turnIndex} (${calls(toolCalls)}) — only ${rawChars} raw chars (< minBatchChars=${minBatchChars}); no LLM call made; frontier advanced past this range`;
}

export function batchDedupedNotice(turnIndex: number, toolCalls: number, rawChars: number): string {
	return `pruner: deduplicated ${calls(toolCalls)} (turn ${turnIndex}, ${rawChars} raw chars) against earlier prunes; no LLM call made; frontier advanced past this range`;
}

export function partialDedupNotice(toolCalls: number): string {
	return `pruner: deduplicated ${calls(toolCalls)} against earlier prunes (no LLM call for those); remaining tool calls were summarized normally.`;
}

export function chainsCompressedNotice(blockIds: readonly string[]): string {
	return `pruner: compressed ${blockIds.length} ${plural(blockIds.length, 'chain', 'chains')} (${blockIds.join(', ')})`;
}

export function compactedNotice(blockIds: readonly string[], reclaimedTokens: number): string {
	return `pruner: compacted ${blockIds.length} ${plural(blockIds.length, 'chain', 'chains')} (${blockIds.join(', ')}), reclaimed ~${reclaimedTokens} tokens`;
}

export function noEligibleChainsNotice(skippedNoSummary: number): string {
	return skippedNoSummary > 0
		? `pruner: no chains eligible for compaction (${skippedNoSummary} skipped — no per-batch summary available)`
		: 'pruner: no chains eligible for compaction';
}

// ── Ours (pi-condense has no such notice) ────────────────────────────────────

/** Chains a flush with work would compress that are still raw (after a `now` that found nothing pending). */
export function compactableChainsText(count: number): string {
	return `${count} ${plural(count, 'chain', 'chains')} can be compacted`;
}

export function offlineNotice(reason: string): string {
	return `pruner: ${reason}; summaries are written offline (extractive, no LLM call)`;
}

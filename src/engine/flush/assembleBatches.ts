/**
 * Turns the summarizer's answers into entries, in pi-condense's order and with its bookkeeping
 * (`flushPending`'s result loop). Pure.
 *
 * Batches are taken in order up to the first failed call; nothing of the failed batch or of any
 * later one is written, so the frontier stays before it. For each summarized batch, refs
 * `t{next}…` are allocated before the oversized check (so a skipped batch burns its numbers), the
 * `[[N:tool]]` labels become those refs (2.1.0+), the footer is added, and the batch is skipped
 * when that text is longer than its result characters. Entry order: dedup aliases, then a summary
 * and its index entry per batch, then the frontier and a stats snapshot. Shapes follow the
 * release: `display`, and from 2.6.0 the result timestamps on records, refs and aliases.
 */
import { parseOccurrenceKey } from '../condense/occurrence';
import type { PendingCall } from '../condense/pending/pendingTypes';
import type { PruneFrontier, PruneFrontierOutcome, SummaryToolCallRef } from '../condense/types';
import type { ReleaseRules } from '../release/releases';
import type { SummarizerError } from '../ports';
import type { EntryDraft } from '../write/entryEnvelope';
import type { JobOutcome } from './callSummarizer';
import type { PreparedBatch } from './classifyBatches';
import { refsFooter, summaryDetails, summaryRef } from '../condense/summaryContent';
import { aliasDraft, frontierDraft, indexDraft, statsDraft, summaryDraft, toolCallRecord } from './entryDrafts';
import type { StatsAccumulator } from './flushStats';
import { NoticeList, SkippedBatchNotes } from './noticeList';
import * as say from './notices';
import { rewriteLabels } from './prompt/labelRewrite';
import { Pacer, type Steps } from '../steps';

export interface AssembleSettings {
	readonly minBatchChars: number;
	readonly quietOversizedSkips: boolean;
	readonly rules: ReleaseRules;
	/** 2.4.3: the thinking-strip boundary stored on the frontier (undefined: none written). */
	readonly thinkingStripBoundary?: number;
}

export interface BatchPhase {
	readonly drafts: readonly EntryDraft[];
	/** `pruner: summarization failed: …`, when a call failed. */
	readonly failureNotice: string | undefined;
	/** Per-batch skip notices, then the partial-dedup one (none when `quietOversizedSkips`). */
	readonly skipNotices: NoticeList;
	/** The `/pruner now` notice; undefined when no batch was processed and nothing failed. */
	readonly finalNotice: string | undefined;
	readonly processedBatches: number;
	readonly summarizedBatches: number;
	/** Of the processed batches, those skipped, by why (with `summarizedBatches` they add up to `processedBatches`). */
	readonly skippedBatches: SkippedBatchCounts;
	/** Tool calls of the processed batches, and of them those summarized (the rest were skipped or aliased). */
	readonly toolCalls: number;
	readonly summarizedCalls: number;
	/** The frontier outcome of the processed batches, when any was processed. */
	readonly outcome: PruneFrontierOutcome | undefined;
	readonly nextRefNumber: number;
	readonly failure: SummarizerError | undefined;
}

export interface SkippedBatchCounts {
	readonly trivial: number;
	readonly deduped: number;
	readonly oversized: number;
}

interface Totals {
	raw: number;
	summary: number;
	toolCalls: number;
	deduped: number;
}

/** The summarized batches' entries and stats, in steps: a first flush may write tens of thousands of batches. */
export function* assembleBatchesSteps(
	prepared: readonly PreparedBatch[],
	outcomes: ReadonlyMap<PreparedBatch, JobOutcome>,
	firstRefNumber: number,
	stats: StatsAccumulator,
	settings: AssembleSettings,
): Steps<BatchPhase> {
	const cutoff = failedPosition(prepared, outcomes);
	const taken = prepared.slice(0, cutoff.position);
	const { rules } = settings;
	const occurrences = rules.occurrenceKeys;
	const timestampOf = (call: PendingCall): number | undefined => (occurrences ? call.resultTimestamp : undefined);
	const aliasDrafts = taken.flatMap((batch) => batch.deduped.map((d) => {
		const original = occurrences ? parseOccurrenceKey(d.originalKey) : { toolCallId: d.originalKey, resultTimestamp: undefined };
		return aliasDraft(d.call.toolCallId, original.toolCallId, timestampOf(d.call), original.resultTimestamp);
	}));
	const batchDrafts: EntryDraft[] = [];
	const totals: Totals = { raw: 0, summary: 0, toolCalls: 0, deduped: 0 };
	const processed: PreparedBatch[] = [];
	const skipped = new SkippedBatchNotes(settings.minBatchChars);
	const kinds = { summarized: 0, oversized: 0, trivial: 0, deduped: 0 };
	let summarizedCalls = 0;
	let nextRef = firstRefNumber;
	const pacer = new Pacer();
	for (const batch of taken) {
		if (pacer.due(batch.rawChars)) {
			yield;
		}
		processed.push(batch);
		totals.raw += batch.rawChars + batch.dedupRawChars;
		totals.toolCalls += batch.remaining.length + batch.deduped.length;
		totals.deduped += batch.deduped.length;
		const turn = batch.captured.turnIndex;
		if (batch.kind === 'deduped') {
			kinds.deduped++;
			skipped.deduped(turn, batch.deduped.length, batch.dedupRawChars);
			continue;
		}
		if (batch.kind === 'trivial') {
			kinds.trivial++;
			skipped.trivial(turn, batch.remaining.length, batch.rawChars);
			continue;
		}
		const outcome = outcomes.get(batch);
		if (outcome?.kind !== 'ok') {
			continue; // unreachable: the cutoff stops before any batch without a result
		}
		const refs: SummaryToolCallRef[] = batch.remaining.map((call, i) => summaryRef(`t${nextRef + i}`, call.toolCallId, timestampOf(call)));
		nextRef += refs.length;
		const toolNames = batch.remaining.map((call) => call.toolName);
		const shortIds = refs.map((ref) => ref.shortId);
		const { answer } = outcome;
		const body = rules.inlineRefs ? rewriteLabels(answer.text, toolNames, shortIds) : answer.text;
		const content = body + refsFooter(shortIds);
		stats.addCall(answer.inputTokens, answer.outputTokens, answer.cost);
		totals.summary += content.length;
		if (content.length > batch.rawChars) {
			kinds.oversized++;
			skipped.oversized(turn, batch.remaining.length, answer.text.length, batch.rawChars);
			continue;
		}
		kinds.summarized++;
		summarizedCalls += batch.remaining.length;
		const { turnIndex, timestamp } = batch.captured;
		batchDrafts.push(summaryDraft(content, summaryDetails(refs, toolNames, turnIndex, timestamp), rules.summaryDisplay));
		batchDrafts.push(indexDraft(batch.remaining.map((call) => toolCallRecord({
			toolCallId: call.toolCallId, toolName: call.toolName, args: call.args, resultText: call.resultText, isError: call.isError, turnIndex, timestamp,
			resultTimestamp: timestampOf(call),
		}))));
	}
	const partialDedup = totals.deduped > 0 && kinds.deduped === 0 ? [say.partialDedupNotice(totals.deduped)] : [];
	const tail: EntryDraft[] = [];
	const outcome = frontierOutcome(kinds);
	const last = processed.at(-1);
	if (last && outcome) {
		tail.push(frontierDraft(frontierOf(last, processed.length, totals, outcome, settings.thinkingStripBoundary)));
		tail.push(statsDraft(stats.snapshot()));
	}
	return {
		drafts: [...aliasDrafts, ...batchDrafts, ...tail],
		failureNotice: cutoff.failure && say.summarizationFailedNotice(cutoff.failure.message),
		skipNotices: settings.quietOversizedSkips ? NoticeList.of() : NoticeList.of(skipped, ...partialDedup),
		finalNotice: finalNotice(processed.length, outcome, totals, settings.minBatchChars, cutoff.failure),
		processedBatches: processed.length,
		summarizedBatches: kinds.summarized,
		skippedBatches: { trivial: kinds.trivial, deduped: kinds.deduped, oversized: kinds.oversized },
		toolCalls: totals.toolCalls,
		summarizedCalls,
		outcome,
		nextRefNumber: nextRef,
		failure: cutoff.failure,
	};
}

/** Position of the first summarized batch whose call failed (or did not run), and its error. */
function failedPosition(prepared: readonly PreparedBatch[], outcomes: ReadonlyMap<PreparedBatch, JobOutcome>): { position: number; failure?: SummarizerError } {
	for (const [position, batch] of prepared.entries()) {
		const outcome = batch.kind === 'summarize' ? outcomes.get(batch) : undefined;
		if (batch.kind === 'summarize' && outcome?.kind !== 'ok') {
			return { position, failure: outcome?.kind === 'failed' ? outcome.error : undefined };
		}
	}
	return { position: prepared.length };
}

function frontierOutcome(kinds: { summarized: number; oversized: number; trivial: number; deduped: number }): PruneFrontierOutcome | undefined {
	if (kinds.summarized > 0) {
		return 'summarized';
	}
	if (kinds.oversized > 0) {
		return 'skipped-oversized';
	}
	if (kinds.deduped > 0) {
		return 'skipped-deduped';
	}
	return kinds.trivial > 0 ? 'skipped-trivial' : undefined;
}

function frontierOf(last: PreparedBatch, batchCount: number, totals: Totals, outcome: PruneFrontierOutcome, boundary: number | undefined): PruneFrontier {
	const calls = last.remaining.length > 0 ? last.remaining : last.deduped.map((d) => d.call);
	const lastCall = calls.at(-1);
	return {
		lastAttemptedToolCallId: lastCall?.toolCallId ?? '',
		lastAttemptedToolName: lastCall?.toolName ?? '',
		lastAttemptedTurnIndex: last.captured.turnIndex,
		lastAttemptedTimestamp: last.captured.timestamp,
		attemptedBatchCount: batchCount,
		attemptedToolCallCount: totals.toolCalls,
		rawCharCount: totals.raw,
		summaryCharCount: totals.summary,
		outcome,
		...(boundary !== undefined ? { thinkingStripBoundaryTimestamp: boundary } : {}),
	};
}

function finalNotice(processed: number, outcome: PruneFrontierOutcome | undefined, totals: Totals, minBatchChars: number, failure: SummarizerError | undefined): string | undefined {
	if (processed === 0 || !outcome) {
		if (!failure) {
			return undefined;
		}
		return failure.kind === 'length' || failure.kind === 'empty'
			? say.nothingFlushedNotice('summarizer-failed')
			: say.nothingFlushedNotice('failed', failure.message);
	}
	switch (outcome) {
		case 'summarized':
			return say.prunedNotice(totals.toolCalls, processed, totals.summary, totals.raw);
		case 'skipped-oversized':
			return say.skippedOversizedNotice(totals.toolCalls, totals.summary, totals.raw);
		case 'skipped-trivial':
			return say.skippedTrivialNotice(totals.toolCalls, totals.raw, minBatchChars);
		case 'skipped-deduped':
			return say.dedupedNotice(totals.deduped > 0 ? totals.deduped : totals.toolCalls, totals.raw);
	}
}

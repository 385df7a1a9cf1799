/**
 * What `now` would take off the context the model is sent, estimated before any summarizer call:
 * for every pending batch `now` would summarize (at least `minBatchChars` of output), each result
 * becomes the release's stub, naming the ref `now` would give it (`t{next}`…), and one summary
 * message is added whose text is a stated share of the batch's output (the ratio this session's
 * summaries have had so far, else a typical one) plus the refs footer the flush writes. Sizes are
 * pi-condense's (`JSON.stringify` length, tokens as chars / 4), measured on the messages as Pi's
 * context holds them. Not counted: chains the flush may compress afterwards, and duplicates it
 * would alias instead of summarizing (their stubs are the same size; no summary is written for
 * them). So it is labelled an estimate wherever it is shown. Pure.
 */
import type { CondenseState } from '../condense/state/condenseState';
import type { PendingBatch } from '../condense/pending/pendingTypes';
import { summarizedStubText } from '../condense/phases/stubText';
import { stringifiedLength } from '../condense/measure/jsonLength';
import { CUSTOM_TYPE_SUMMARY } from '../condense/types';
import { refsFooter, summaryDetails, summaryRef } from '../condense/summaryContent';
import { Pacer, type Steps } from '../steps';

/** The share of a batch's output its summary takes when the session has no summary yet to measure. */
export const TYPICAL_SUMMARY_RATIO = 0.1;

export interface PendingEstimate {
	/** Batches pending, and of them those `now` would summarize (the rest are below `minBatchChars`). */
	readonly batches: number;
	readonly summarizedBatches: number;
	readonly toolCalls: number;
	/** Output characters of the pending calls. */
	readonly rawChars: number;
	/** Characters of the sent context `now` would take off (stubs and summaries counted). */
	readonly reclaimChars: number;
	/** Summary length over output length assumed. */
	readonly summaryRatio: number;
	/** Where the ratio comes from: this session's summaries so far, or the typical share. */
	readonly ratioFrom: 'session' | 'typical';
}

export interface EstimateSettings {
	readonly minBatchChars: number;
	/** Whether summary messages are written hidden (2.1.0+: `display: false`). */
	readonly summaryDisplay: boolean;
	/** Occurrence keys (2.6.0+): refs carry the result's timestamp. */
	readonly occurrenceKeys: boolean;
}

export function* pendingEstimateSteps(pending: readonly PendingBatch[], state: CondenseState, settings: EstimateSettings): Steps<PendingEstimate> {
	const { ratio, from } = yield* summaryRatioSteps(state);
	const pacer = new Pacer();
	let nextRef = state.nextRefNumber;
	let toolCalls = 0;
	let rawChars = 0;
	let reclaim = 0;
	let summarized = 0;
	for (const batch of pending) {
		toolCalls += batch.toolCalls.length;
		rawChars += batch.rawChars;
		if (batch.toolCalls.length === 0 || (settings.minBatchChars > 0 && batch.rawChars < settings.minBatchChars)) {
			continue; // skipped as trivial: the frontier moves past it, nothing is stubbed
		}
		summarized++;
		const refs = batch.toolCalls.map((call, i) => summaryRef(`t${nextRef + i}`, call.toolCallId, settings.occurrenceKeys ? call.resultTimestamp : undefined));
		nextRef += refs.length;
		for (const [i, call] of batch.toolCalls.entries()) {
			reclaim += contentLength(call.resultText) - contentLength(summarizedStubText((refs[i] as { shortId: string }).shortId));
			if (pacer.due(call.resultText.length)) {
				yield;
			}
		}
		reclaim -= summaryMessageLength(batch, refs, ratio, settings.summaryDisplay);
	}
	return { batches: pending.length, summarizedBatches: summarized, toolCalls, rawChars, reclaimChars: Math.max(0, reclaim), summaryRatio: ratio, ratioFrom: from };
}

/**
 * This session's summaries over the output of the calls they cover (what its model and prompt have
 * produced so far), kept between 2% and 50%; the typical share when there is none to measure.
 */
export function* summaryRatioSteps(state: CondenseState): Steps<{ readonly ratio: number; readonly from: 'session' | 'typical' }> {
	const pacer = new Pacer();
	let summaryChars = 0;
	let rawChars = 0;
	for (const summary of state.summaries) {
		summaryChars += summary.text.length;
		for (const ref of summary.refs) {
			const record = state.records.get(ref.key)?.record;
			rawChars += record ? record.resultText.length || record.spillBytes || 0 : 0;
		}
		if (pacer.due(summary.refs.length)) {
			yield;
		}
	}
	if (summaryChars === 0 || rawChars === 0) {
		return { ratio: TYPICAL_SUMMARY_RATIO, from: 'typical' };
	}
	return { ratio: Math.min(0.5, Math.max(0.02, summaryChars / rawChars)), from: 'session' };
}

/** A tool result's `content` as Pi's context holds it: one text block. */
function contentLength(text: string): number {
	return stringifiedLength([{ type: 'text', text }]);
}

/** The summary message as Pi's context would hold it: its text at the ratio, the refs footer, the details the flush writes. */
function summaryMessageLength(batch: PendingBatch, refs: ReturnType<typeof summaryRef>[], ratio: number, display: boolean): number {
	const body = Math.round(batch.rawChars * ratio);
	const footer = refsFooter(refs.map((ref) => ref.shortId));
	const details = summaryDetails(refs, batch.toolCalls.map((call) => call.toolName), batch.turnIndex, batch.timestamp);
	return body + stringifiedLength({ role: 'custom', customType: CUSTOM_TYPE_SUMMARY, content: footer, display, details, timestamp: batch.timestamp });
}

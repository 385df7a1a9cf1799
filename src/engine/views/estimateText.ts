/**
 * The words of an estimate (a dry run of `now` or `compact`, `flushEstimate.ts`), one copy for every
 * surface that shows it: the preview's pending bar, the confirmation before the prune and the toast
 * after it. Each surface puts the same pieces in the same order; tokens are pi-condense's (chars / 4).
 * Pure.
 */
import { charsToTokens, formatCompactCount } from '../condense/measure/compactFormat';
import { SUMMARY_CHARS_PER_CALL, type FlushEstimate } from '../preview/flushEstimate';
import type { SentChange } from '../preview/sentAfterDrafts';
import type { PendingBatch } from '../condense/pending/pendingTypes';

/**
 * An estimate as the page shows it: figures for the page's tests and screen readers, and the
 * sentences. While the dry run is still worked out (`estimating`), only `pendingText` is said.
 */
export interface PendingWork {
	readonly batches: number;
	readonly estimating: boolean;
	readonly reclaimTokens: number;
	/** `6 batches pending (12 tool calls, 40.1k chars of output)` */
	readonly pendingText: string;
	/** `Summarize now would summarize 1 batch, skip 5 as trivial (below minBatchChars), then compress 4 chains` */
	readonly planText: string;
	/** `about 2.4k tokens` */
	readonly reclaimText: string;
	/** `12.0k → 9.6k tokens sent, estimate` */
	readonly changeText: string;
	/** How it was worked out, and when the summaries' length decides it. */
	readonly basisText: string;
}

export function pendingWork(estimate: FlushEstimate, release: string): PendingWork | undefined {
	if (estimate.batches === 0) {
		return undefined;
	}
	return {
		batches: estimate.batches,
		estimating: false,
		reclaimTokens: charsToTokens(estimate.reclaimChars),
		pendingText: pendingText(estimate),
		planText: planText(estimate),
		reclaimText: reclaimText(estimate),
		changeText: changeText(estimate),
		basisText: basisText(estimate, release),
	};
}

/** The pending batches alone, while their dry run is worked out (a large backlog takes a while). */
export function pendingWorkEstimating(pending: readonly PendingBatch[]): PendingWork | undefined {
	if (pending.length === 0) {
		return undefined;
	}
	const counts = { batches: pending.length, toolCalls: 0, rawChars: 0 };
	for (const batch of pending) {
		counts.toolCalls += batch.toolCalls.length;
		counts.rawChars += batch.rawChars;
	}
	return { batches: pending.length, estimating: true, reclaimTokens: 0, pendingText: pendingText(counts), planText: '', reclaimText: '', changeText: '', basisText: '' };
}

export function pendingText(counts: Pick<FlushEstimate, 'batches' | 'toolCalls' | 'rawChars'>): string {
	return `${plural(counts.batches, 'batch', 'batches')} pending (${plural(counts.toolCalls, 'tool call')}, ${formatCompactCount(counts.rawChars)} chars of output)`;
}

/** What the flush would do, in the order it does it. */
export function planText(estimate: FlushEstimate): string {
	const chains = estimate.compressedChains;
	if (estimate.mode === 'compact') {
		return chains > 0 ? `Compact would compress ${plural(chains, 'closed chain')} into one block each` : 'Compact would compress no chain: none is eligible';
	}
	const { trivial, deduped, oversized } = estimate.skippedBatches;
	const skips = [
		trivial > 0 ? `${trivial.toLocaleString('en')} as trivial (below minBatchChars)` : '',
		deduped > 0 ? `${deduped.toLocaleString('en')} as duplicates of outputs already indexed` : '',
		oversized > 0 ? `${oversized.toLocaleString('en')} whose summary would be longer than the output` : '',
	].filter((part) => part !== '');
	const steps = [
		`summarize ${plural(estimate.summarizedBatches, 'batch', 'batches')}`,
		...(skips.length > 0 ? [`skip ${skips.join(', ')}`] : []),
		...(chains > 0 ? [`${estimate.summarizedBatches > 0 || skips.length > 0 ? 'then ' : ''}compress ${plural(chains, 'chain')}`] : []),
	];
	return `Summarize now would ${steps.join(', ')}`;
}

/** `about 2.4k tokens` (what it takes off the request the model is sent). */
export function reclaimText(estimate: FlushEstimate): string {
	return `about ${formatCompactCount(charsToTokens(estimate.reclaimChars))} tokens`;
}

export function changeText(estimate: FlushEstimate): string {
	return `${formatCompactCount(charsToTokens(estimate.sent.beforeChars))} → ${formatCompactCount(charsToTokens(estimate.sent.afterChars))} tokens sent, estimate`;
}

/** How the estimate was worked out, and why the result may differ. */
export function basisText(estimate: FlushEstimate, release: string): string {
	const summaries = estimate.mode === 'now'
		? `summaries at ${Math.round(estimate.summaryRatio * 100)}% of their output (${estimate.ratioFrom === 'session' ? 'this session\'s ratio so far' : 'a typical ratio'}) and at least ${SUMMARY_CHARS_PER_CALL} characters a call, chain summaries joined rather than fused`
		: 'chain summaries joined rather than fused';
	const decide = estimate.summariesDecide
		? ' The summaries are much of it: what the prune reclaims depends on how long they come out, known only once they are written.'
		: '';
	return `Estimate: a dry run of pi-condense ${release}'s flush, ${summaries}.${decide}`;
}

/** The toast's comparison: `estimated about 2.4k tokens, reclaimed 2.6k (12.0k → 9.4k tokens sent)`. */
export function estimateVersusResult(estimate: FlushEstimate | undefined, result: SentChange): string {
	const reclaimed = Math.max(0, result.beforeChars - result.afterChars);
	const sent = `${formatCompactCount(charsToTokens(result.beforeChars))} → ${formatCompactCount(charsToTokens(result.afterChars))} tokens sent`;
	const was = estimate ? `estimated ${reclaimText(estimate)}, ` : '';
	return `${was}reclaimed ${formatCompactCount(charsToTokens(reclaimed))} tokens (${sent})`;
}

function plural(n: number, one: string, many = `${one}s`): string {
	return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}

/**
 * The `context-prune-flush-metrics` entry pi-condense 2.7.0+ writes once per flush (the last entry
 * of the flush, whatever its outcome, `empty` included; never for a flush refused because another
 * one was running). Pure: the flush supplies the clock, the counts and the snapshot.
 *
 * @example
 * const snapshot = runSteps(contextMetricsForSteps(branchAtStart, stateAtStart, config, release)) ?? ZERO_CONTEXT_METRICS;
 * const entry = flushMetricsEntry(release, {
 * 	ts: now(), trigger: flushMetricsTrigger({ kind: 'message-end' }),
 * 	capturedBatches: 2, processedBatches: 2,
 * 	outcome: flushMetricsOutcome({ capturedBatches: 2, processedBatches: 2, frontierOutcome: 'summarized' }),
 * 	metrics: snapshot,
 * });
 * // entry: { customType: 'context-prune-flush-metrics', data: { ts, trigger, capturedBatches, … } }
 */
import { CUSTOM_TYPE_FLUSH_METRICS, type PruneFrontierOutcome } from '../condense/types';
import type { ReleaseRules } from '../release/releases';
import type { ContextMetrics } from './contextMetrics';

export { CUSTOM_TYPE_FLUSH_METRICS };

export type FlushMetricsTrigger = 'budget' | 'delta' | 'message-end' | 'manual' | 'rearmed';

export type FlushMetricsOutcome = PruneFrontierOutcome | 'empty' | 'error';

/** The entry's `data`, fields in the order the release writes them. */
export interface FlushMetricsData {
	/** Epoch ms when the entry is written. */
	readonly ts: number;
	readonly trigger: FlushMetricsTrigger;
	/** Batches after rescan, trim and grouping (or the batches previewed by `/pruner now`). */
	readonly capturedBatches: number;
	/** Batches that went through the result loop (before a failed frontier write: those persisted). */
	readonly processedBatches: number;
	readonly outcome: FlushMetricsOutcome;
	/** The snapshot taken when the flush began, before any work. */
	readonly metrics: ContextMetrics;
}

/** What started the flush. */
export type FlushStart =
	| { readonly kind: 'message-end' }
	/** `/pruner now` (and our Flush Now / CLI `now`). */
	| { readonly kind: 'manual' }
	/** The `turn_end` budget or delta gate: `queueLength` is the in-memory queue when it fired. */
	| { readonly kind: 'turn-end'; readonly queueLength: number; readonly budgetHit: boolean };

/**
 * `rearmed` when the turn-end gate fired on an empty queue (work recovered after a reload); else
 * `budget` when the threshold fired, even if the delta fired too; else `delta`.
 */
export function flushMetricsTrigger(start: FlushStart): FlushMetricsTrigger {
	if (start.kind !== 'turn-end') {
		return start.kind;
	}
	if (start.queueLength === 0) {
		return 'rearmed';
	}
	return start.budgetHit ? 'budget' : 'delta';
}

export interface FlushRun {
	readonly capturedBatches: number;
	readonly processedBatches: number;
	/**
	 * The outcome of the frontier the flush wrote (2.0.0's precedence), when it wrote one; undefined
	 * when it stopped before, or the write failed.
	 */
	readonly frontierOutcome: PruneFrontierOutcome | undefined;
}

/**
 * `empty` when nothing was captured; the frontier's outcome when batches were processed and the
 * frontier written (a failure after that does not change it); `error` otherwise (aborted, every
 * summarizer call failed, the frontier write failed, or anything thrown before).
 */
export function flushMetricsOutcome(run: FlushRun): FlushMetricsOutcome {
	if (run.capturedBatches === 0) {
		return 'empty';
	}
	return run.processedBatches > 0 && run.frontierOutcome !== undefined ? run.frontierOutcome : 'error';
}

/** The data with its fields in the release's order (what `JSON.stringify` writes depends on it). */
export function flushMetricsData(input: FlushMetricsData): FlushMetricsData {
	return {
		ts: input.ts,
		trigger: input.trigger,
		capturedBatches: input.capturedBatches,
		processedBatches: input.processedBatches,
		outcome: input.outcome,
		metrics: {
			openCycleThinkingTokens: input.metrics.openCycleThinkingTokens,
			largestChainSharePct: input.metrics.largestChainSharePct,
			frontierGapTokens: input.metrics.frontierGapTokens,
		},
	};
}

/** The custom entry a flush appends last under `rules`; undefined before 2.7.0, which writes none. */
export function flushMetricsEntry(rules: ReleaseRules, input: FlushMetricsData): { readonly customType: typeof CUSTOM_TYPE_FLUSH_METRICS; readonly data: FlushMetricsData } | undefined {
	return rules.flushMetrics ? { customType: CUSTOM_TYPE_FLUSH_METRICS, data: flushMetricsData(input) } : undefined;
}

/**
 * The segments pi-condense appends to its `prune: ON` footer text, byte-exact. Pure.
 *
 * - 2.6.0+: ` · diag u2/o1`, the diagnostics written since the session was loaded, counted per
 *   kind in the fixed order u (unresolved-range), m (range-id-mismatch), o (orphan-sweep),
 *   b (backfill-empty, 2.9.0+), zero counts left out.
 * - 2.7.0+: ` · think 3.2k · gap 5.1k · chain 41%`, the cached context metrics, shown only while
 *   the frontier gap is above 0.
 *
 * @example
 * withFooterSegments('prune: ON · 92.0k->14.0k (-85%)', releaseRules('2.9.1'), { unresolvedRange: 1 }, metrics)
 * // 'prune: ON · 92.0k->14.0k (-85%) · diag u1 · think 3.2k · gap 5.1k · chain 41%'
 */
import { formatCompactCount } from '../condense/measure/compactFormat';
import type { ReleaseDiagnostic } from '../condense/phases/renderReport';
import type { ReleaseRules } from '../release/releases';
import type { ContextMetrics } from './contextMetrics';

const SEPARATOR = ' \u00b7 ';

/** Diagnostics written per kind; each (kind, dedup key) is written once per load. */
export interface DiagnosticCounts {
	readonly unresolvedRange?: number;
	readonly rangeIdMismatch?: number;
	readonly orphanSweep?: number;
	/** Written by flushes and `compact` (2.9.0+), never by a render. */
	readonly backfillEmpty?: number;
}

/**
 * What the release's counters read after it rendered with these diagnostics once since the load:
 * one per distinct (kind, dedup key). Sweeps are told apart by their swept ids, which is what the
 * release's key hashes.
 */
export function diagnosticCounts(diagnostics: readonly ReleaseDiagnostic[], backfillEmpty = 0): DiagnosticCounts {
	const seen = new Set<string>();
	const counts = { unresolvedRange: 0, rangeIdMismatch: 0, orphanSweep: 0, backfillEmpty };
	for (const diagnostic of diagnostics) {
		const key = `${diagnostic.kind}\n${diagnostic.kind === 'orphan-sweep' ? diagnostic.sweptIds.join(',') : diagnostic.dedupKey}`;
		if (seen.has(key)) {
			continue;
		}
		seen.add(key);
		if (diagnostic.kind === 'unresolved-range') {
			counts.unresolvedRange++;
		} else if (diagnostic.kind === 'range-id-mismatch') {
			counts.rangeIdMismatch++;
		} else {
			counts.orphanSweep++;
		}
	}
	return counts;
}

/** ` · diag u2/o1`, or `''` when every counter is 0. */
export function diagSegment(counts: DiagnosticCounts): string {
	const parts = ([
		['u', counts.unresolvedRange], ['m', counts.rangeIdMismatch], ['o', counts.orphanSweep], ['b', counts.backfillEmpty],
	] as const).filter(([, count]) => (count ?? 0) > 0).map(([letter, count]) => `${letter}${count}`);
	return parts.length === 0 ? '' : `${SEPARATOR}diag ${parts.join('/')}`;
}

/** ` · think T · gap G · chain P%`, or `''` without metrics or while the frontier gap is 0. */
export function metricsSegment(metrics: ContextMetrics | undefined): string {
	if (!metrics || metrics.frontierGapTokens <= 0) {
		return '';
	}
	return `${SEPARATOR}think ${formatCompactCount(metrics.openCycleThinkingTokens)}${SEPARATOR}gap ${formatCompactCount(metrics.frontierGapTokens)}${SEPARATOR}chain ${metrics.largestChainSharePct}%`;
}

/**
 * The `prune: ON` text (with its reclaim) followed by the segments `rules` shows. Only for the
 * ON state: `prune: OFF`, `prune: N pending` and `prune: summarizing…` never carry segments.
 */
export function withFooterSegments(onText: string, rules: ReleaseRules, counts: DiagnosticCounts, metrics: ContextMetrics | undefined): string {
	return onText
		+ (rules.diagnosticEntries ? diagSegment(counts) : '')
		+ (rules.flushMetrics ? metricsSegment(metrics) : '');
}

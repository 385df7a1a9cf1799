/**
 * The footer segments and the `--- context ---` block, byte for byte as spec §5.1 and §5.2 quote
 * pi-condense's own texts.
 */
import assert from 'node:assert/strict';
import { pruneStatusText, type ReleaseDiagnostic } from '../../../../src/engine/condense';
import { contextBlockLines, diagnosticCounts, diagSegment, metricsSegment, withFooterSegments } from '../../../../src/engine/metrics';
import { releaseRules } from '../../../../src/engine/release/releases';

/**
 * Metrics that give the spec's full footer example (§5.1). Its flush-metrics example (§3.10) has
 * 3150 thinking tokens, which the release's `toFixed(1)` writes as `3.1k`, not the example's `3.2k`.
 */
const EXAMPLE = { openCycleThinkingTokens: 3200, largestChainSharePct: 41, frontierGapTokens: 5120 };

describe('footer segments (2.6.0+ diag, 2.7.0+ metrics)', () => {
	it('builds the spec\'s full example', () => {
		const on = pruneStatusText({ enabled: true }, { beforeChars: 368_000, afterChars: 56_000 });
		assert.equal(
			withFooterSegments(on, releaseRules('2.7.0'), { unresolvedRange: 1 }, EXAMPLE),
			'prune: ON \u00b7 92.0k->14.0k (-85%) \u00b7 diag u1 \u00b7 think 3.2k \u00b7 gap 5.1k \u00b7 chain 41%',
		);
	});

	it('shows only the segments the release has', () => {
		const counts = { orphanSweep: 2 };
		assert.equal(withFooterSegments('prune: ON', releaseRules('2.5.0'), counts, EXAMPLE), 'prune: ON');
		assert.equal(withFooterSegments('prune: ON', releaseRules('2.6.0'), counts, EXAMPLE), 'prune: ON \u00b7 diag o2');
		assert.equal(withFooterSegments('prune: ON', releaseRules('2.9.1'), counts, EXAMPLE), 'prune: ON \u00b7 diag o2 \u00b7 think 3.2k \u00b7 gap 5.1k \u00b7 chain 41%');
	});

	it('writes the non-zero counters in the order u, m, o, b joined with /', () => {
		assert.equal(diagSegment({}), '');
		assert.equal(diagSegment({ unresolvedRange: 0, orphanSweep: 0 }), '');
		assert.equal(diagSegment({ backfillEmpty: 1, orphanSweep: 3, unresolvedRange: 2, rangeIdMismatch: 4 }), ' \u00b7 diag u2/m4/o3/b1');
		assert.equal(diagSegment({ backfillEmpty: 1, unresolvedRange: 2 }), ' \u00b7 diag u2/b1');
	});

	it('counts each diagnostic once per (kind, dedup key), as the release writes it once per load', () => {
		const diagnostics: ReleaseDiagnostic[] = [
			{ kind: 'unresolved-range', dedupKey: 'b1', detail: 'blockId=b1 start=1 final=2' },
			{ kind: 'unresolved-range', dedupKey: 'b1', detail: 'blockId=b1 start=1 final=2' },
			{ kind: 'unresolved-range', dedupKey: 'overlap:b2', detail: 'blockId=b2 skipped: range nests inside blockId=b1' },
			{ kind: 'range-id-mismatch', dedupKey: 'b1', detail: 'blockId=b1 recorded=2 actual=1' },
			{ kind: 'orphan-sweep', sweptIds: ['bash_1'], detail: 'swept 1 orphan toolResult(s): bash_1' },
			{ kind: 'orphan-sweep', sweptIds: ['bash_1'], detail: 'swept 1 orphan toolResult(s): bash_1' },
			{ kind: 'orphan-sweep', sweptIds: ['bash_1', 'bash_2'], detail: 'swept 2 orphan toolResult(s): bash_1, bash_2' },
		];
		assert.deepEqual(diagnosticCounts(diagnostics), { unresolvedRange: 2, rangeIdMismatch: 1, orphanSweep: 2, backfillEmpty: 0 });
		assert.equal(diagSegment(diagnosticCounts(diagnostics, 1)), ' \u00b7 diag u2/m1/o2/b1');
	});

	it('hides the metrics while the frontier gap is 0, and uses the compact format', () => {
		assert.equal(metricsSegment(undefined), '');
		assert.equal(metricsSegment({ ...EXAMPLE, openCycleThinkingTokens: 3150 }), ' \u00b7 think 3.1k \u00b7 gap 5.1k \u00b7 chain 41%');
		assert.equal(metricsSegment({ ...EXAMPLE, frontierGapTokens: 0 }), '');
		assert.equal(metricsSegment({ openCycleThinkingTokens: 999, largestChainSharePct: 100, frontierGapTokens: 1_250_000 }), ' \u00b7 think 999 \u00b7 gap 1.3M \u00b7 chain 100%');
	});
});

describe('the --- context --- block of /pruner status (2.7.0+)', () => {
	it('is four two-space indented lines, and rearmed only while the flag is set', () => {
		assert.deepEqual(contextBlockLines(EXAMPLE, false), [
			'  --- context ---',
			'  thinking:     3.2k tokens (open segment)',
			'  chain share:  41%',
			'  frontier gap: 5.1k tokens',
		]);
		assert.equal(contextBlockLines(EXAMPLE, true).at(-1), '  rearmed:      yes');
	});
});

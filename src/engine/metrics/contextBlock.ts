/**
 * The `--- context ---` block `/pruner status` ends with from 2.7.0, always (pruning on or off),
 * byte-exact: two-space indented lines, token counts in the compact format, and `rearmed: yes` only
 * while the reload-rearm flag is set. Pure.
 *
 * @example
 * contextBlockLines({ openCycleThinkingTokens: 3150, largestChainSharePct: 41, frontierGapTokens: 5120 }, false)
 * // ['  --- context ---', '  thinking:     3.2k tokens (open segment)', '  chain share:  41%', '  frontier gap: 5.1k tokens']
 */
import { formatCompactCount } from '../condense/measure/compactFormat';
import type { ContextMetrics } from './contextMetrics';

export function contextBlockLines(metrics: ContextMetrics, rearmed: boolean): string[] {
	return [
		'  --- context ---',
		`  thinking:     ${formatCompactCount(metrics.openCycleThinkingTokens)} tokens (open segment)`,
		`  chain share:  ${metrics.largestChainSharePct}%`,
		`  frontier gap: ${formatCompactCount(metrics.frontierGapTokens)} tokens`,
		...(rearmed ? ['  rearmed:      yes'] : []),
	];
}

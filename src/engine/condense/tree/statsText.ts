/**
 * The `/pruner stats` text, byte-exact with pi-condense. Pure.
 */
import { formatCompactCount, formatCost } from '../measure/compactFormat';
import type { SummarizerStats } from '../types';

export function statsText(stats: SummarizerStats | undefined): string {
	if (!stats || (stats.callCount === 0 && stats.chainsCompressed === 0)) {
		return 'pruner stats: no summarizer calls yet.';
	}
	const chains = stats.chainsCompressed > 0 ? `\n  chains:      ${stats.chainsCompressed} compressed` : '';
	return 'pruner stats:'
		+ `\n  calls:       ${stats.callCount}`
		+ `\n  input:       ${formatCompactCount(stats.totalInputTokens)} tokens`
		+ `\n  output:      ${formatCompactCount(stats.totalOutputTokens)} tokens`
		+ `\n  cost:        ${formatCost(stats.totalCost)}${chains}`;
}

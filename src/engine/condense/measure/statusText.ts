/**
 * pi-condense's status-line texts (footer id `context-prune`), byte-exact. Pure.
 *
 * @example
 * pruneStatusText(config, { beforeChars: 368000, afterChars: 56000 }) // 'prune: ON · 92.0k->14.0k (-85%)'
 */
import { charsToTokens, formatCompactCount } from './compactFormat';

/** Serialized size of the context before and after the transform (`JSON.stringify(…).length`). */
export interface LiveReclaim {
	readonly beforeChars: number;
	readonly afterChars: number;
	/**
	 * The same of the whole request, with Pi 1.x's system messages, which pi-condense's own figure
	 * leaves out; undefined when there are none (the two measures are then one).
	 */
	readonly request?: { readonly beforeChars: number; readonly afterChars: number };
}

/** What pi-condense's status line says was taken off, in whole percent: 0 and up, 0 for an empty context. */
export function reductionPercent(beforeTokens: number, afterTokens: number): number {
	return beforeTokens === 0 ? 0 : Math.max(0, Math.round((1 - afterTokens / beforeTokens) * 100));
}

export const SUMMARIZING_STATUS_TEXT = 'prune: summarizing…';

export function pruneStatusText(config: { readonly enabled: boolean }, reclaim?: LiveReclaim): string {
	if (!config.enabled) {
		return 'prune: OFF';
	}
	if (!reclaim || reclaim.beforeChars <= 0) {
		return 'prune: ON';
	}
	const before = charsToTokens(reclaim.beforeChars);
	const after = charsToTokens(reclaim.afterChars);
	// A context under 2 chars rounds to 0 tokens: 0% rather than a division by zero.
	const reduction = reductionPercent(before, after);
	return `prune: ON \u00b7 ${formatCompactCount(before)}->${formatCompactCount(after)} (-${reduction}%)`;
}

/** Shown while turns are queued for the next flush. */
export function pendingStatusText(pendingTurns: number): string {
	return `prune: ${pendingTurns} pending`;
}

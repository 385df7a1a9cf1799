/**
 * Budget triggers (pi-condense's `autoBudgetThreshold` and `budgetTurnDelta`), evaluated on the
 * context usage the last assistant reply reported. Either one forces a flush whatever `pruneOn`
 * says. Pure.
 *
 * - Tokens are Pi's `calculateContextTokens` of the last assistant usage (`totalTokens`, else the
 *   sum of its parts). Replies that errored or were aborted carry no valid usage and are passed
 *   over. After a compaction the usage is unknown until a reply comes after it (`null`).
 * - The window is the model's context window capped at 300k tokens (2.8.0: a 0.9 threshold of a
 *   1M window would never fire in practice).
 * - Threshold: tokens / window ≥ threshold. Delta: the rise of that fraction since the previous
 *   reply ≥ delta (no previous reply, no delta). Values outside (0, 1] switch a trigger off.
 */
import type { ContextPruneConfig } from '../../config/types';
import type { SessionEntry, Usage } from '../../session/types';

export const BUDGET_WINDOW_CAP = 300_000;

export interface ContextUsageReading {
	/** Context tokens reported by the last valid reply; null when unknown. */
	readonly tokens: number | null;
	/** The same for the valid reply before it (after the same compaction); null when none. */
	readonly previousTokens: number | null;
}

export type BudgetTrigger = 'threshold' | 'delta';

export function contextTokens(usage: Usage): number {
	return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** Reads the last two valid assistant usages of the branch, stopping at the latest compaction. */
export function readContextUsage(branch: readonly SessionEntry[]): ContextUsageReading {
	const found: number[] = [];
	for (let i = branch.length - 1; i >= 0 && found.length < 2; i--) {
		const entry = branch[i] as SessionEntry;
		if (entry.type === 'compaction') {
			break;
		}
		if (entry.type === 'message' && entry.message.role === 'assistant') {
			const { stopReason, usage } = entry.message;
			const tokens = stopReason === 'aborted' || stopReason === 'error' ? 0 : contextTokens(usage);
			if (tokens > 0) {
				found.push(tokens);
			}
		}
	}
	return { tokens: found[0] ?? null, previousTokens: found[1] ?? null };
}

/** The trigger that fires for this reading, if any. */
export function budgetTrigger(
	config: Pick<ContextPruneConfig, 'enabled' | 'autoBudgetThreshold' | 'budgetTurnDelta'>,
	reading: ContextUsageReading,
	contextWindow: number,
): BudgetTrigger | undefined {
	const window = Math.min(contextWindow, BUDGET_WINDOW_CAP);
	if (!config.enabled || !(window > 0) || reading.tokens === null) {
		return undefined;
	}
	const fraction = reading.tokens / window;
	if (inRange(config.autoBudgetThreshold) && fraction >= config.autoBudgetThreshold) {
		return 'threshold';
	}
	if (inRange(config.budgetTurnDelta) && reading.previousTokens !== null && (reading.tokens - reading.previousTokens) / window >= config.budgetTurnDelta) {
		return 'delta';
	}
	return undefined;
}

function inRange(value: number | null): value is number {
	return value !== null && value > 0 && value <= 1;
}

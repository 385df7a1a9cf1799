/**
 * Budget triggers (pi-condense's `autoBudgetThreshold` and `budgetTurnDelta`), evaluated on the
 * context usage the last assistant reply reported. Either one forces a flush whatever `pruneOn`
 * says. Pure.
 *
 * - Tokens are Pi's `calculateContextTokens` of the last assistant usage (`totalTokens`, else the
 *   sum of its parts). Replies that errored or were aborted carry no valid usage and are passed
 *   over. After a compaction the usage is unknown until a reply comes after it (`null`).
 * - Before 2.8.0 the window is the model's context window: threshold when tokens / window ≥
 *   threshold; delta when the rise of that fraction since the previous reply ≥ delta.
 * - From 2.8.0 (`budgetWindowCap`, 300k tokens: a 0.9 threshold of a 1M window would never fire in
 *   practice): threshold when tokens ≥ min(cap, threshold × window); delta on fractions of
 *   min(window, cap).
 * - No previous reply, no delta. Values outside (0, 1] switch a trigger off.
 */
import type { ContextPruneConfig } from '../../config/types';
import type { ReleaseRules } from '../../release';
import type { SessionEntry, Usage } from '../../session/types';

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

/** The trigger that fires for this reading under `rules`, if any. */
export function budgetTrigger(
	config: Pick<ContextPruneConfig, 'enabled' | 'autoBudgetThreshold' | 'budgetTurnDelta'>,
	reading: ContextUsageReading,
	contextWindow: number,
	rules: Pick<ReleaseRules, 'budgetWindowCap'>,
): BudgetTrigger | undefined {
	if (!config.enabled || !(contextWindow > 0) || reading.tokens === null) {
		return undefined;
	}
	const cap = rules.budgetWindowCap;
	const basis = cap === undefined ? contextWindow : Math.min(contextWindow, cap);
	if (inRange(config.autoBudgetThreshold)) {
		const due = cap === undefined ? reading.tokens / contextWindow >= config.autoBudgetThreshold : reading.tokens >= Math.min(cap, config.autoBudgetThreshold * contextWindow);
		if (due) {
			return 'threshold';
		}
	}
	if (inRange(config.budgetTurnDelta) && reading.previousTokens !== null && (reading.tokens - reading.previousTokens) / basis >= config.budgetTurnDelta) {
		return 'delta';
	}
	return undefined;
}

function inRange(value: number | null): value is number {
	return value !== null && value > 0 && value <= 1;
}

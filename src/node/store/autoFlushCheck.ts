/**
 * Whether the extension should flush a session by itself (the opt-in auto-flush): pi-condense's
 * triggers as seen from outside Pi. The budget triggers (`autoBudgetThreshold`, `budgetTurnDelta`)
 * fire whatever `pruneOn` says; otherwise `agent-message` mode flushes once the agent's final reply
 * is the leaf and the file has been quiet. Only when there is something pending.
 */
import { stat } from 'node:fs/promises';
import { budgetTrigger, idleFlushDecision, readContextUsage } from '../../engine/flush';
import type { PreparedInsight } from '../../engine/views';

export type AutoFlushReason = 'idle' | 'threshold' | 'delta';

export interface AutoFlushInputs {
	readonly path: string;
	readonly insight: PreparedInsight;
	readonly nowMs: number;
	readonly quietMs: number;
	/** The session model's context window, when the budget triggers need it (undefined: not known). */
	readonly contextWindow?: number;
}

/** True when `contextPrune` sets a budget trigger (which needs the model's context window). */
export function usesBudgetTriggers(config: PreparedInsight['config']): boolean {
	return config.autoBudgetThreshold !== null || config.budgetTurnDelta !== null;
}

export async function autoFlushReason(inputs: AutoFlushInputs): Promise<AutoFlushReason | undefined> {
	const { insight } = inputs;
	if (!insight.config.enabled || insight.pending.length === 0) {
		return undefined;
	}
	if (inputs.contextWindow !== undefined) {
		const budget = budgetTrigger(insight.config, readContextUsage(insight.branch), inputs.contextWindow, insight.rules);
		if (budget) {
			return budget;
		}
	}
	const mtimeMs = (await stat(inputs.path)).mtimeMs;
	const decision = idleFlushDecision({ config: insight.config, leaf: insight.model.entries.at(-1), fileMtimeMs: mtimeMs, nowMs: inputs.nowMs, quietMs: inputs.quietMs });
	return decision.due ? 'idle' : undefined;
}

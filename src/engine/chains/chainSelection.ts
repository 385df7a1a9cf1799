/**
 * Which chains a flush compresses, planned as the user's release plans them: detection over Pi's
 * context, all but the newest `keepRaw` closed uncompressed chains, those holding a recovery
 * output in its grace window deferred (2.3.0+), then the jobs (a chain the release skips is listed
 * as skipped). And, from the same plan, how many chains are left for `compact`. Pure.
 */
import { protectionCheck } from '../condense/protection/protectionRules';
import type { CondenseState } from '../condense/state/condenseState';
import type { ContextPruneConfig } from '../config/types';
import type { ReleaseRules } from '../release/releases';
import type { ContextMessage, SessionEntry } from '../session/types';
import type { Steps } from '../steps';
import { detectChainsSteps } from './detectChains';
import { planChainJobsSteps, type ChainPlan } from './planChains';
import { deferInGrace, graceKeysOfBranchSteps, selectChains } from './selectChains';

export interface ChainSelectionInput {
	/** The branch the grace window is counted on (the state's branch, or the one it will be). */
	readonly branch: readonly SessionEntry[];
	/** Pi's context messages the chains are detected in. */
	readonly messages: readonly ContextMessage[];
	readonly state: CondenseState;
	readonly config: ContextPruneConfig;
	readonly rules: ReleaseRules;
	/** How many of the newest eligible chains stay raw: the rolling window, or 0 for `compact`. */
	readonly keepRaw: number;
}

export function* planChainSelectionSteps(input: ChainSelectionInput): Steps<ChainPlan> {
	const { branch, messages, state, config, rules } = input;
	const compressedStarts = new Set(state.chains.map((chain) => chain.entry.startUserTimestamp));
	const detected = yield* detectChainsSteps(messages, protectionCheck(config), compressedStarts);
	const window = selectChains(detected, input.keepRaw, compressedStarts);
	if (window.length === 0) {
		return { jobs: [], skipped: [] };
	}
	const inGrace = rules.recoveryGrace ? yield* graceKeysOfBranchSteps(branch, config.recoveryGraceTurns ?? 0, state.keying) : new Set<string>();
	const selected = deferInGrace(window, inGrace, rules.occurrenceKeys);
	return yield* planChainJobsSteps(selected, messages, state, rules);
}

/**
 * Chains a flush with work would compress now that are still raw (0 while pruning or chain
 * compression is off). The release compresses chains only at the end of a flush that processed a
 * batch, or at `/pruner compact`: after a `now` resumed from a killed flush found nothing pending,
 * the chains the killed flush did not reach wait for one of them, and the views say so.
 */
export function* compactableChainsSteps(branch: readonly SessionEntry[], messages: readonly ContextMessage[], state: CondenseState, config: ContextPruneConfig, rules: ReleaseRules): Steps<number> {
	if (!config.enabled || !config.chainCompression.enabled) {
		return 0;
	}
	const plan = yield* planChainSelectionSteps({ branch, messages, state, config, rules, keepRaw: config.chainCompression.rollingWindow });
	return plan.jobs.length;
}

/**
 * Which detected chains to compress now (pi-condense's `selectEligible`). Pure.
 *
 * Candidates are the closed chains with a non-empty middle that are not compressed yet (by start
 * timestamp); all but the newest `keepRaw` of them are selected (`/pruner compact` passes 0). The
 * open chain never counts.
 */
import { bareToolCallId } from '../condense/occurrence';
import { recoveryGraceKeysSteps } from '../condense/phases/recoveryGrace';
import type { StateKeying } from '../condense/state/condenseState';
import type { AgentMessage, SessionEntry } from '../session/types';
import { paced, type Steps } from '../steps';
import type { DetectedChain } from './detectChains';

export function selectChains(chains: readonly DetectedChain[], keepRaw: number, compressedStarts: ReadonlySet<number>): DetectedChain[] {
	const candidates = chains.filter((chain) => chain.finalAssistantTimestamp !== null
		&& chain.middleToolCallIds.length > 0
		&& !compressedStarts.has(chain.startUserTimestamp));
	return candidates.slice(0, Math.max(0, candidates.length - Math.max(0, keepRaw)));
}

/**
 * 2.3.0+: drops from the selection every chain holding a recovery output still in its grace window
 * (after the rolling-window slice, so a deferred chain frees no slot). `inGrace` is the set the
 * renderer computes over the branch's messages. Up to 2.5.0 it holds bare ids matched against the
 * chain's ids; from 2.6.0 occurrence keys matched against the chain's result keys (its ids when it
 * has none), a bare entry also matching any key of that id.
 */
export function deferInGrace(selected: readonly DetectedChain[], inGrace: ReadonlySet<string>, occurrenceKeys: boolean): DetectedChain[] {
	if (inGrace.size === 0) {
		return [...selected];
	}
	const holdsGrace = (chain: DetectedChain): boolean => {
		if (!occurrenceKeys || chain.middleKeys.length === 0) {
			return chain.middleToolCallIds.some((id) => inGrace.has(id));
		}
		return chain.middleKeys.some((key) => inGrace.has(key) || inGrace.has(bareToolCallId(key)));
	};
	return selected.filter((chain) => !holdsGrace(chain));
}

/**
 * The recovery outputs in their grace window, counted over the branch's persisted messages (the
 * `message` entries) as the release counts them when it selects chains.
 */
export function* graceKeysOfBranchSteps(branch: readonly SessionEntry[], graceTurns: number, keying: StateKeying): Steps<ReadonlySet<string>> {
	const persisted: AgentMessage[] = [];
	for (let i = 0; i < branch.length; i++) {
		if (paced(i)) {
			yield;
		}
		const entry = branch[i] as SessionEntry;
		// Pi 1.x's system messages are not part of the conversation pi-condense counts turns in.
		if (entry.type === 'message' && entry.message.role !== 'system') {
			persisted.push(entry.message);
		}
	}
	return yield* recoveryGraceKeysSteps(persisted, graceTurns, keying);
}

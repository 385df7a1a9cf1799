/**
 * The context transform: what the user's pi-condense release hands on from Pi's `context` event,
 * computed from Pi's own context and the state that release rebuilt from the branch. Pure; never
 * mutates its input.
 *
 * Phases, in the release's order (each gated by its config switch, each returning its input array
 * when it changes nothing):
 * - 2.0.0–2.4.3: stub-replace (with the recovery grace from 2.3.0) → error purge → chain prune by
 *   id → thinking strip (live count; 2.4.3 uses the flush-time boundary when the frontier has one);
 * - 2.5.0: the same without the thinking strip;
 * - 2.6.0+: occurrence-keyed stub-replace → error purge → positional chain prune → orphan sweep.
 * With `enabled: false` the messages come back untouched (same array), and when no phase changes
 * anything the same array comes back too, so `result === messages` means "sent as Pi built it".
 * Defects are rendered as the release has them; warnings about them go to `reporter.warning`.
 *
 * Pi 1.x's system messages are Pi's, not pi-condense's: the phases see the conversation without them,
 * and they come back as Pi puts them back (in place when nothing changed, else replayed into one
 * leading system message; `src/engine/session/systemMessages.ts`).
 *
 * @example
 * const release = releaseRules('2.9.1');
 * const rendered = runSteps(renderContextSteps(context.messages, runSteps(buildCondenseStateSteps(branch, release)), config, release));
 */
import type { ContextPruneConfig } from '../../config/types';
import type { ReleaseRules } from '../../release/releases';
import { conversationOf, restoreSystemMessages } from '../../session/systemMessages';
import type { AgentMessage, ContextMessage } from '../../session/types';
import { chainPruneByIdSteps } from '../phases/chainPruneById';
import { chainPrunePositionalSteps } from '../phases/chainPrunePositional';
import { purgeErroredArgsSteps } from '../phases/errorPurge';
import { orphanWarningsSteps } from '../phases/orphanWarnings';
import { sweepOrphanResultsSteps } from '../phases/orphanSweep';
import { recoveryGraceKeysSteps } from '../phases/recoveryGrace';
import { NO_REPORTS, type RenderReporter } from '../phases/renderReport';
import { stubReplaceSteps } from '../phases/stubReplace';
import { stripOldThinking, stripThinkingBefore } from '../phases/thinkingStrip';
import { protectionCheck } from '../protection/protectionRules';
import type { CondenseState } from '../state/condenseState';
import { type Steps } from '../../steps';

const NO_GRACE: ReadonlySet<string> = new Set();

/** Renders `messages` as the release sends them from `state` under `config`, in steps (see `src/engine/steps.ts`). */
export function* renderContextSteps<M extends ContextMessage>(
	messages: readonly M[],
	state: CondenseState,
	config: ContextPruneConfig,
	rules: ReleaseRules,
	reporter: RenderReporter = NO_REPORTS,
): Steps<readonly (M | AgentMessage)[]> {
	if (!config.enabled) {
		return messages;
	}
	const conversation = conversationOf(messages);
	return restoreSystemMessages(messages, conversation, yield* renderConversationSteps(conversation, state, config, rules, reporter));
}

/** The transform of the conversation a `context` handler sees (no system message). */
function* renderConversationSteps(
	messages: readonly AgentMessage[],
	state: CondenseState,
	config: ContextPruneConfig,
	rules: ReleaseRules,
	reporter: RenderReporter,
): Steps<readonly AgentMessage[]> {
	let current = messages;
	if (state.records.size > 0 || state.aliases.size > 0) {
		const graceTurns = rules.recoveryGrace ? config.recoveryGraceTurns ?? 0 : 0;
		const inGrace = graceTurns > 0 ? yield* recoveryGraceKeysSteps(messages, graceTurns, state.keying) : NO_GRACE;
		yield;
		current = yield* stubReplaceSteps(current, state, protectionCheck(config), inGrace);
	}
	if (config.purgeErrors.enabled) {
		yield;
		current = yield* purgeErroredArgsSteps(current, config.purgeErrors);
	}
	if (config.chainCompression.enabled) {
		yield;
		current = rules.positionalChains
			? yield* chainPrunePositionalSteps(current, state, config.chainCompression, reporter.diagnostic)
			: yield* chainPruneByIdSteps(current, state, config.chainCompression, reporter.warning && { release: rules.version, report: reporter.warning });
	}
	yield;
	current = yield* lastPhase(current, state, config, rules, reporter);
	if (reporter.warning && current !== messages) {
		(yield* orphanWarningsSteps(messages, current, rules)).forEach(reporter.warning);
	}
	return current;
}

/** Phase 4: the thinking strip up to 2.4.3, nothing in 2.5.0, the orphan sweep from 2.6.0. */
function* lastPhase(messages: readonly AgentMessage[], state: CondenseState, config: ContextPruneConfig, rules: ReleaseRules, reporter: RenderReporter): Steps<readonly AgentMessage[]> {
	if (rules.orphanSweep !== 'none') {
		return yield* sweepOrphanResultsSteps(messages, rules.orphanSweep, reporter.diagnostic);
	}
	const strip = config.thinkingStrip;
	if (rules.thinkingStrip === 'none' || !strip?.enabled) {
		return messages;
	}
	const boundary = rules.thinkingStrip === 'flush-boundary' ? state.frontier?.thinkingStripBoundaryTimestamp : undefined;
	return boundary === undefined ? stripOldThinking(messages, strip.keepLastTurns) : stripThinkingBefore(messages, boundary);
}

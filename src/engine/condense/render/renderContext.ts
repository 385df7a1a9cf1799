/**
 * The context transform: what pi-condense hands on from Pi's `context` event, computed from Pi's
 * own context and the state rebuilt from the branch. Pure; never mutates its input.
 *
 * Phases, in pi-condense's order: stub-replace, error purge, chain range prune, thinking strip;
 * each is gated by its config switch and returns its input array when it changes nothing. Then the
 * orphan check. With `enabled: false` the messages are returned untouched (same array), and when
 * no phase changes anything the same array comes back too, so callers can test `result ===
 * messages` to skip all further work.
 *
 * @example
 * const rendered = renderContext(context.messages, buildCondenseState(branch), config);
 * const changed = rendered !== context.messages;
 */
import type { ContextPruneConfig } from '../../config/types';
import type { AgentMessage } from '../../session/types';
import { chainRangePrune } from '../phases/chainRangePrune';
import { purgeErroredArgs } from '../phases/errorPurge';
import { checkOrphans } from '../phases/orphanCheck';
import { ignoreDiagnostics, type RenderReporter } from '../phases/renderDiagnostics';
import { stubReplace } from '../phases/stubReplace';
import { stripOldThinking } from '../phases/thinkingStrip';
import { protectionCheck } from '../protection/protectionRules';
import type { CondenseState } from '../state/condenseState';

export function renderContext(
	messages: readonly AgentMessage[],
	state: CondenseState,
	config: ContextPruneConfig,
	report: RenderReporter = ignoreDiagnostics,
): readonly AgentMessage[] {
	if (!config.enabled) {
		return messages;
	}
	let current = messages;
	if (state.records.size > 0 || state.aliases.size > 0) {
		current = stubReplace(current, state, protectionCheck(config));
	}
	if (config.purgeErrors.enabled) {
		current = purgeErroredArgs(current, config.purgeErrors);
	}
	if (config.chainCompression.enabled) {
		current = chainRangePrune(current, state, config.chainCompression, report);
	}
	if (config.thinkingStrip.enabled) {
		current = stripOldThinking(current, config.thinkingStrip.keepLastTurns);
	}
	return checkOrphans(messages, current, report);
}

/**
 * One-call entry points over the engine: rebuild the state from a branch and render Pi's context
 * as a release does, with the measurements the status line and preview need. Pure. Also what the
 * benchmark times.
 *
 * @example
 * const preview = runSteps(previewContextSteps(branch, context.messages, config, releaseRules('2.9.1')));
 * preview.statusText // 'prune: ON · 92.0k->14.0k (-85%)'
 */
import type { ContextPruneConfig } from '../config/types';
import type { ReleaseRules } from '../release/releases';
import { conversationOf } from '../session/systemMessages';
import type { ContextMessage, SessionEntry } from '../session/types';
import { measureReclaimSteps, serializedLengthSteps } from './measure/contextSize';
import { pruneStatusText, type LiveReclaim } from './measure/statusText';
import type { DefectWarning, ReleaseDiagnostic } from './phases/renderReport';
import { renderContextSteps } from './render/renderContext';
import { buildCondenseStateSteps, type BuildStateOptions } from './state/buildCondenseState';
import { EMPTY_CONDENSE_STATE, type CondenseState } from './state/condenseState';
import { type Steps } from '../steps';

/**
 * Full render from the branch (state rebuild + transform). With `enabled: false` it returns
 * `messages` itself without reading the branch: the no-op path.
 */
export function* renderBranchSteps(branch: readonly SessionEntry[], messages: readonly ContextMessage[], config: ContextPruneConfig, rules: ReleaseRules): Steps<readonly ContextMessage[]> {
	if (!config.enabled) {
		return messages;
	}
	return yield* renderContextSteps(messages, yield* buildCondenseStateSteps(branch, rules), config, rules);
}

/** What the model is sent for one branch under one configuration and release, with what pi-condense measures and reports of it. */
export interface RenderedContext {
	readonly state: CondenseState;
	readonly before: readonly ContextMessage[];
	readonly after: readonly ContextMessage[];
	/**
	 * pi-condense's own measure of what it reclaimed, over the conversation it saw (no system message);
	 * undefined when the render changed nothing (the messages were not serialized).
	 */
	readonly reclaim: LiveReclaim | undefined;
	readonly statusText: string;
	/** What the release itself reports (2.6.0+), as it would persist it. */
	readonly diagnostics: readonly ReleaseDiagnostic[];
	/** The release's defects that change what is sent. */
	readonly warnings: readonly DefectWarning[];
}

/** pi-condense's measure (the conversation), and the whole request's when Pi 1.x's system messages make it another. */
function* reclaimWithRequestSteps(messages: readonly ContextMessage[], after: readonly ContextMessage[]): Steps<LiveReclaim | undefined> {
	const conversation = conversationOf(messages);
	const reclaim = yield* measureReclaimSteps(conversation, conversationOf(after));
	if (!reclaim || conversation.length === messages.length) {
		return reclaim;
	}
	return { ...reclaim, request: { beforeChars: yield* serializedLengthSteps(messages), afterChars: yield* serializedLengthSteps(after) } };
}

/** State, rendered context, reclaim and status text for one branch. */
export function* previewContextSteps(
	branch: readonly SessionEntry[],
	messages: readonly ContextMessage[],
	config: ContextPruneConfig,
	rules: ReleaseRules,
	options: BuildStateOptions = {},
): Steps<RenderedContext> {
	return yield* previewFromStateSteps(config.enabled ? yield* buildCondenseStateSteps(branch, rules, options) : EMPTY_CONDENSE_STATE, messages, config, rules);
}

/** The same from an already rebuilt state (the state is not consulted when pruning is disabled). */
export function* previewFromStateSteps(state: CondenseState, messages: readonly ContextMessage[], config: ContextPruneConfig, rules: ReleaseRules): Steps<RenderedContext> {
	const diagnostics: ReleaseDiagnostic[] = [];
	const warnings: DefectWarning[] = [];
	const after = yield* renderContextSteps(messages, state, config, rules, { diagnostic: (d) => diagnostics.push(d), warning: (w) => warnings.push(w) });
	const reclaim = after === messages ? undefined : yield* reclaimWithRequestSteps(messages, after);
	return { state, before: messages, after, reclaim, statusText: pruneStatusText(config, reclaim), diagnostics, warnings };
}

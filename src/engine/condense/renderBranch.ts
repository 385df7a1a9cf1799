/**
 * One-call entry points over the engine: rebuild the state from a branch and render Pi's context,
 * with the measurements the status line and preview need. Pure. Also what the benchmark times.
 *
 * @example
 * const preview = previewContext(branch, context.messages, config);
 * preview.statusText // 'prune: ON · 92.0k->14.0k (-85%)'
 */
import type { ContextPruneConfig } from '../config/types';
import type { AgentMessage, SessionEntry } from '../session/types';
import { measureReclaim } from './measure/contextSize';
import { pruneStatusText, type LiveReclaim } from './measure/statusText';
import type { RenderDiagnostic } from './phases/renderDiagnostics';
import { renderContext } from './render/renderContext';
import { buildCondenseState, type BuildStateOptions } from './state/buildCondenseState';
import { EMPTY_CONDENSE_STATE, type CondenseState } from './state/condenseState';

/**
 * Full render from the branch (state rebuild + transform). With `enabled: false` it returns
 * `messages` itself without reading the branch: the no-op path.
 */
export function renderBranch(branch: readonly SessionEntry[], messages: readonly AgentMessage[], config: ContextPruneConfig): readonly AgentMessage[] {
	if (!config.enabled) {
		return messages;
	}
	return renderContext(messages, buildCondenseState(branch), config);
}

export interface ContextPreview {
	readonly state: CondenseState;
	readonly before: readonly AgentMessage[];
	readonly after: readonly AgentMessage[];
	/** Undefined when the render changed nothing (the messages were not serialized). */
	readonly reclaim: LiveReclaim | undefined;
	readonly statusText: string;
	readonly diagnostics: readonly RenderDiagnostic[];
}

/** State, rendered context, reclaim and status text for one branch. */
export function previewContext(
	branch: readonly SessionEntry[],
	messages: readonly AgentMessage[],
	config: ContextPruneConfig,
	options: BuildStateOptions = {},
): ContextPreview {
	return previewFromState(config.enabled ? buildCondenseState(branch, options) : EMPTY_CONDENSE_STATE, messages, config);
}

/** The same from an already rebuilt state (the state is not consulted when pruning is disabled). */
export function previewFromState(state: CondenseState, messages: readonly AgentMessage[], config: ContextPruneConfig): ContextPreview {
	const diagnostics: RenderDiagnostic[] = [];
	const after = renderContext(messages, state, config, (d) => diagnostics.push(d));
	const reclaim = measureReclaim(messages, after);
	return { state, before: messages, after, reclaim, statusText: pruneStatusText(config, reclaim), diagnostics };
}

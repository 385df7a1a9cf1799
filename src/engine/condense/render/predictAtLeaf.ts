/**
 * What the preview predicts Pi sends at one point of a session: the context of the branch ending at
 * `leafId` (where Pi's leaf was when it made the request), rendered as the followed pi-condense
 * release renders it with the configured settings (Pi's own context when pruning is off or
 * pi-condense is not installed), as the last `context` handler (the bridge) sees it: without Pi 1.x's
 * system messages, which Pi hands to the provider only (`conversationOf`). Undefined until the file holds
 * that entry (Pi writes a new session's first lines only with its first reply). Pure.
 */
import type { ContextPruneConfig } from '../../config/types';
import { previewFromStateSteps } from '../renderBranch';
import { buildCondenseStateSteps } from '../state/buildCondenseState';
import type { ReleaseRules } from '../../release/releases';
import { getBranchSteps } from '../../session/branch';
import { conversationOf } from '../../session/systemMessages';
import { buildSessionContextSteps } from '../../session/context';
import type { SessionModel } from '../../session/model';
import type { AgentMessage } from '../../session/types';
import type { Steps } from '../../steps';

export function* predictAtLeafSteps(model: SessionModel, leafId: string | null, config: ContextPruneConfig, rules: ReleaseRules): Steps<readonly AgentMessage[] | undefined> {
	if (leafId !== null && model.entryById(leafId) === undefined) {
		return undefined;
	}
	const context = yield* buildSessionContextSteps(model, leafId);
	if (!config.enabled) {
		return conversationOf(context.messages);
	}
	const state = yield* buildCondenseStateSteps(yield* getBranchSteps(model, leafId), rules);
	const preview = yield* previewFromStateSteps(state, context.messages, config, rules);
	return conversationOf(preview.after);
}

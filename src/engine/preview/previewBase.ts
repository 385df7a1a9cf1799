/**
 * The part of a preview that does not depend on what-if settings: the state rebuilt from the
 * branch, entry ids, the last call's usage and the previous call as it was sent. Computed once per
 * session snapshot and reused for every what-if change. Pure.
 */
import type { ContextPruneConfig } from '../config/types';
import type { ReleaseRules } from '../release/releases';
import type { SizeOf } from '../condense/measure/contextSize';
import { buildCondenseStateSteps } from '../condense/state/buildCondenseState';
import { EMPTY_CONDENSE_STATE, type CondenseState } from '../condense/state/condenseState';
import { renderContextSteps } from '../condense/render/renderContext';
import type { AgentMessage, AssistantMessage, SessionEntry } from '../session/types';
import { messageEntryIdsSteps } from './messageEntries';
import { previousCallSteps, type PreviousCall } from './previousCall';
import { cachedArgsText, cachedSizeOf, type ArgsText } from './sizeCache';
import { paced, runSteps, type Steps } from '../steps';

export interface PreviewBase {
	readonly sessionPath: string;
	readonly title: string;
	readonly branch: readonly SessionEntry[];
	/** Pi's context (before pruning). */
	readonly messages: readonly AgentMessage[];
	readonly config: ContextPruneConfig;
	/** The pi-condense release the state was rebuilt and the context rendered for. */
	readonly release: ReleaseRules;
	readonly state: CondenseState;
	readonly entryIds: readonly (string | undefined)[];
	/** The previous call's reply, whose usage Pi recorded. */
	readonly reply: AssistantMessage | undefined;
	/** The previous call's context as sent (rendered with the configured settings), and raw. */
	readonly previousSent: readonly AgentMessage[] | undefined;
	readonly previousRaw: readonly AgentMessage[] | undefined;
	/** Serialized size of a message or block, computed once for every preview of this base. */
	readonly sizeOf: SizeOf;
	/** Pretty tool-call arguments, computed once for every preview of this base. */
	readonly argsText: ArgsText;
}

export interface BaseInputs {
	readonly sessionPath: string;
	readonly title: string;
	readonly branch: readonly SessionEntry[];
	readonly messages: readonly AgentMessage[];
	readonly config: ContextPruneConfig;
	readonly release: ReleaseRules;
	/** An already rebuilt state of this branch (for the same release), if the caller has one. */
	readonly state?: CondenseState;
}

export function previewBase(inputs: BaseInputs): PreviewBase {
	return runSteps(previewBaseSteps(inputs));
}

/** The same, yielding between pieces of work (see `src/engine/steps.ts`). */
export function* previewBaseSteps(inputs: BaseInputs): Steps<PreviewBase> {
	const { branch, messages, config, release } = inputs;
	const state = config.enabled ? inputs.state ?? (yield* buildCondenseStateSteps(branch, release)) : EMPTY_CONDENSE_STATE;
	const entryIds = yield* messageEntryIdsSteps(branch, messages);
	const previous = yield* previousCallSteps(branch, messages, entryIds);
	const previousState = previous && config.enabled ? yield* stateAtCall(previous, branch, state, release) : EMPTY_CONDENSE_STATE;
	const previousSent = previous ? yield* renderContextSteps(previous.rawMessages, previousState, config, release) : undefined;
	return {
		sessionPath: inputs.sessionPath,
		title: inputs.title,
		branch,
		messages,
		config,
		release,
		state,
		entryIds,
		reply: previous?.reply,
		previousSent,
		previousRaw: previous?.rawMessages,
		sizeOf: cachedSizeOf(),
		argsText: cachedArgsText(),
	};
}

/**
 * pi-condense's state when the previous call was sent. The state is made of pi-condense's own
 * entries, so when none of them came after that point it is the current state: the common case
 * (no flush since the last call) rebuilds nothing.
 */
function* stateAtCall(previous: PreviousCall, branch: readonly SessionEntry[], state: CondenseState, release: ReleaseRules): Steps<CondenseState> {
	const kept = new Set<SessionEntry>();
	for (let i = 0; i < previous.branch.length; i++) {
		if (paced(i)) {
			yield;
		}
		kept.add(previous.branch[i] as SessionEntry);
	}
	let later = false;
	for (let i = 0; i < branch.length && !later; i++) {
		if (paced(i)) {
			yield;
		}
		const entry = branch[i] as SessionEntry;
		later = !kept.has(entry) && (entry.type === 'custom' || entry.type === 'custom_message');
	}
	return later ? yield* buildCondenseStateSteps(previous.branch, release) : state;
}

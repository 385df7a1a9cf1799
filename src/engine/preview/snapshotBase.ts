/**
 * The part of a preview that does not depend on what-if settings: the state rebuilt from the
 * branch, entry ids, the last call's usage and the previous call as it was sent. Computed once per
 * session snapshot and reused for every what-if change. Pure.
 */
import type { ContextPruneConfig } from '../config/types';
import type { ReleaseRules } from '../release/releases';
import { measuredContextSteps, type MeasuredContext } from '../condense/measure/contextSize';
import { buildCondenseStateSteps } from '../condense/state/buildCondenseState';
import { EMPTY_CONDENSE_STATE, type CondenseState } from '../condense/state/condenseState';
import { renderContextSteps } from '../condense/render/renderContext';
import { appliedEditsSteps, type AppliedEdit } from '../session/contextEdits';
import type { SessionContext } from '../session/model';
import { usageTotalsSteps, type UsageTotals } from '../session/usageTotals';
import type { ContextMessage, AssistantMessage, SessionEntry } from '../session/types';
import { alignContextsSteps } from './alignContexts';
import { messageEntryIdsSteps } from './messageEntries';
import { previousCallSteps, type PreviousCall } from './previousCall';
import { cachedArgsText, type ArgsText } from './argsText';
import { paced, type Steps } from '../steps';

export interface SnapshotBase {
	readonly sessionPath: string;
	readonly title: string;
	readonly branch: readonly SessionEntry[];
	/** Pi's context (before pruning). */
	readonly messages: readonly ContextMessage[];
	readonly config: ContextPruneConfig;
	/** The pi-condense release the state was rebuilt and the context rendered for. */
	readonly rules: ReleaseRules;
	readonly state: CondenseState;
	readonly entryIds: readonly (string | undefined)[];
	/** Pi 1.x: the `context_edit`s that changed the context (omissions first). */
	readonly edits: readonly AppliedEdit[];
	/** The replaced messages among them, by index in `messages`. */
	readonly editedAt: ReadonlyMap<number, AppliedEdit>;
	/** Pi's token and cost totals of the whole file (`sessionEntries` given), usage entries included. */
	readonly sessionUsage: UsageTotals | undefined;
	/** The previous call's reply, whose usage Pi recorded. */
	readonly reply: AssistantMessage | undefined;
	/** The previous call's context as sent (rendered with the configured settings), and raw. */
	readonly previousSent: readonly ContextMessage[] | undefined;
	readonly previousRaw: readonly ContextMessage[] | undefined;
	/**
	 * Pi's context measured once for every preview of this base: its breakdown and each message's
	 * size by index. A table by position rather than a cache by message: a map of every message and
	 * block held about 3 MB of hash tables on a 100 MB session, and each preview added to it.
	 */
	readonly measured: MeasuredContext;
	/** Each message's size in `previousSent`, by index. */
	readonly previousSizes: Uint32Array | undefined;
	/** Pretty tool-call arguments, computed once for every preview of this base. */
	readonly argsText: ArgsText;
}

export interface BaseInputs {
	readonly sessionPath: string;
	readonly title: string;
	readonly branch: readonly SessionEntry[];
	readonly messages: readonly ContextMessage[];
	readonly config: ContextPruneConfig;
	readonly rules: ReleaseRules;
	/** An already rebuilt state of this branch (for the same release), if the caller has one. */
	readonly state?: CondenseState;
	/**
	 * The context `messages` is (`buildSessionContext` of the branch), when the caller has it: it says
	 * where each message came from and which Pi 1.x edits changed them. Without it messages are paired
	 * with entries by a scan (an edited message then has no entry).
	 */
	readonly context?: SessionContext;
	/** Every entry of the file, in file order: for Pi's session totals. */
	readonly sessionEntries?: readonly SessionEntry[];
}

/** What every what-if of one session snapshot shares (state, previous call, sizes), in steps (see `src/engine/steps.ts`). */
export function* snapshotBaseSteps(inputs: BaseInputs): Steps<SnapshotBase> {
	const { branch, messages, config, rules } = inputs;
	const state = config.enabled ? inputs.state ?? (yield* buildCondenseStateSteps(branch, rules)) : EMPTY_CONDENSE_STATE;
	const context = inputs.context?.messages === messages ? inputs.context : undefined;
	const entryIds = context ? (yield* context.sources.entriesSteps()).map((entry) => entry.id) : yield* messageEntryIdsSteps(branch, messages);
	const edits = context ? yield* appliedEditsSteps(context) : [];
	const previous = yield* previousCallSteps(branch, messages, entryIds);
	const previousState = previous && config.enabled ? yield* stateAtCall(previous, branch, state, rules) : EMPTY_CONDENSE_STATE;
	const previousSent = previous ? yield* renderContextSteps(previous.rawMessages, previousState, config, rules) : undefined;
	const measured = yield* measuredContextSteps(messages);
	const previousSizes = previous && previousSent ? (yield* previousCallSizesSteps(messages, measured, previous.rawMessages, previousSent)) : undefined;
	return {
		sessionPath: inputs.sessionPath,
		title: inputs.title,
		branch,
		messages,
		config,
		rules,
		state,
		entryIds,
		edits,
		editedAt: new Map(edits.flatMap((applied) => (applied.at === undefined ? [] : [[applied.at, applied] as const]))),
		sessionUsage: inputs.sessionEntries ? yield* usageTotalsSteps(inputs.sessionEntries) : undefined,
		reply: previous?.reply,
		previousSent,
		previousRaw: previous?.rawMessages,
		measured,
		previousSizes,
		argsText: cachedArgsText(),
	};
}

/**
 * pi-condense's state when the previous call was sent. The state is made of pi-condense's own
 * entries, so when none of them came after that point it is the current state: the common case
 * (no flush since the last call) rebuilds nothing.
 */
function* stateAtCall(previous: PreviousCall, branch: readonly SessionEntry[], state: CondenseState, rules: ReleaseRules): Steps<CondenseState> {
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
	return later ? yield* buildCondenseStateSteps(previous.branch, rules) : state;
}

/**
 * Sizes of the previous call's sent messages: those that are Pi's messages (its raw context is a
 * subsequence of today's) are looked up in today's measures, the others (stubs, chains) measured.
 */
function* previousCallSizesSteps(messages: readonly ContextMessage[], measured: MeasuredContext, previousRaw: readonly ContextMessage[], previousSent: readonly ContextMessage[]): Steps<Uint32Array> {
	const alignment = yield* alignContextsSteps(previousRaw, previousSent);
	const indexInMessages = new Int32Array(previousRaw.length).fill(-1);
	let at = 0;
	for (let i = 0; i < previousRaw.length; i++) {
		while (at < messages.length && messages[at] !== previousRaw[i]) {
			at++;
		}
		if (at < messages.length) {
			indexInMessages[i] = at;
		}
		if (paced(i)) {
			yield;
		}
	}
	const sizes = yield* measuredContextSteps(previousSent, {
		table: measured,
		indexOf: (message, index) => {
			const raw = alignment.rawIndexOf[index] ?? -1;
			const at = raw >= 0 && previousRaw[raw] === message ? indexInMessages[raw] ?? -1 : -1;
			return at >= 0 && messages[at] === message ? at : -1;
		},
	});
	return sizes.sizes;
}

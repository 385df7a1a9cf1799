/**
 * What the model would be sent once a flush's entries are in the session, measured the way the
 * preview measures what it is sent now: the entries are put after the leaf (`withPlannedEntriesSteps`),
 * their messages join Pi's context where Pi puts entries that continue the leaf (at the end), the
 * state is rebuilt as the release rebuilds it and the context rendered again. The estimate before a
 * prune (a dry run's entries) and the outcome after it (the entries written) are both measured here,
 * so the two figures the toast sets side by side are one measure. Pure.
 */
import type { ContextPruneConfig } from '../config/types';
import { serializedLengthSteps } from '../condense/measure/contextSize';
import { previewFromStateSteps } from '../condense/renderBranch';
import { buildCondenseStateSteps } from '../condense/state/buildCondenseState';
import { withPlannedEntriesSteps } from '../flush/virtualBranch';
import type { ReleaseRules } from '../release/releases';
import { editedEntryMessages } from '../session/projection';
import type { ContextMessage, SessionEntry } from '../session/types';
import type { EntryDraft } from '../write/entryEnvelope';
import { paced, type Steps } from '../steps';

/** The session a flush starts from, and what it sends now. */
export interface SentBefore {
	/** The active branch, root → leaf. */
	readonly branch: readonly SessionEntry[];
	/** Pi's context of that branch. */
	readonly messages: readonly ContextMessage[];
	/** What the model is sent now (the rendered context under `config`). */
	readonly sent: readonly ContextMessage[];
	readonly config: ContextPruneConfig;
	readonly rules: ReleaseRules;
}

/** The whole request's size before and after, in serialized characters (pi-condense's measure: tokens are chars / 4). */
export interface SentChange {
	readonly beforeChars: number;
	readonly afterChars: number;
}

export function* sentAfterDraftsSteps(before: SentBefore, drafts: readonly EntryDraft[], atMs: number): Steps<SentChange> {
	const beforeChars = yield* serializedLengthSteps(before.sent);
	if (drafts.length === 0) {
		return { beforeChars, afterChars: beforeChars };
	}
	const branch = yield* withPlannedEntriesSteps(before.branch, drafts, atMs);
	const messages = before.messages.slice();
	for (let i = before.branch.length; i < branch.length; i++) {
		if (paced(i)) {
			yield;
		}
		messages.push(...editedEntryMessages(branch[i] as SessionEntry, undefined));
	}
	const state = yield* buildCondenseStateSteps(branch, before.rules);
	const rendered = yield* previewFromStateSteps(state, messages, before.config, before.rules);
	return { beforeChars, afterChars: yield* serializedLengthSteps(rendered.after) };
}

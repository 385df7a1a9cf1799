/**
 * The `context_edit`s that changed a context (Pi 0.87.0+): which entries Pi leaves out, and which
 * messages it sends with a replaced content, each with what the entry itself says. Pure. The views show
 * both sides: the raw entry never changes, only what the model is sent.
 */
import type { SessionContext } from './model';
import { entryMessages } from './projection';
import type { ContextEditEntry, ContextMessage, SessionEntry } from './types';
import type { Steps } from '../steps';

export interface AppliedEdit {
	readonly edit: ContextEditEntry;
	readonly target: SessionEntry;
	/** What the target entry contributes without the edit. */
	readonly raw: readonly ContextMessage[];
	/** Index in the context of the message sent instead; undefined when the edit omits the entry. */
	readonly at: number | undefined;
}

const EDITABLE_ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'toolResult', 'custom']);

/**
 * Every edit that changed `context`, in context order (omitted entries first, then replaced
 * messages), in steps: the replaced messages' entries are worked out for the whole context.
 */
export function* appliedEditsSteps(context: SessionContext): Steps<AppliedEdit[]> {
	if (context.edits.size === 0) {
		return [];
	}
	const applied: AppliedEdit[] = [];
	for (const target of context.omitted) {
		const edit = context.edits.get(target.id);
		if (edit) {
			applied.push({ edit, target, raw: entryMessages(target), at: undefined });
		}
	}
	const sources = yield* context.sources.entriesSteps();
	context.messages.forEach((message, at) => {
		const target = sources[at];
		const edit = target && context.edits.get(target.id);
		if (target && edit?.replacement && EDITABLE_ROLES.has(message.role)) {
			applied.push({ edit, target, raw: entryMessages(target), at });
		}
	});
	return applied;
}

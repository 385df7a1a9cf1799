/**
 * Pi's `buildSessionContext` as Pi 1.6.0 builds it (`buildContextEntries`, then `buildSessionProjection`):
 * the messages of the active branch, system messages included, with each message's source entry and the
 * context edits that applied. Pure. On a file without Pi 1.x entries it is exactly Pi 0.73's context.
 *
 * Walk root → leaf; the last `thinking_level_change` gives the thinking level, the last `model_change` or
 * assistant message the model. Without a compaction every path entry takes part. With one, the newest
 * compaction comes first, then the path entries before it from `firstKeptEntryId` on (none when that id is
 * not on the path, or is the compaction's own: the retain-none form) leaving out system messages (the
 * compaction's checkpoint replaces them), then every entry after it. Each entry then contributes its
 * messages (`projection.ts`), with the latest `context_edit` among those entries that targets it.
 */
import { unreachable } from '../../base/unreachable';
import { getBranchSteps } from './branch';
import type { ModelRef, SessionContext, SessionModel } from './model';
import { ContextSources } from './contextSources';
import { editedEntryMessages, entryMessageCount, pushEntryMessages } from './projection';
import type { ContextEditEntry, ContextMessage, SessionEntry } from './types';
import { paced, type Steps } from '../steps';

export { customMessageOf } from './projection';

const cache = new WeakMap<SessionModel, SessionContext>();
const NO_EDITS: ReadonlyMap<string, ContextEditEntry> = new Map();

/** Pi's context of the branch ending at `leafId` (default: the model's leaf), in steps (see `src/engine/steps.ts`); kept per model for its leaf. */
export function* buildSessionContextSteps(model: SessionModel, leafId?: string | null): Steps<SessionContext> {
	if (leafId !== undefined && leafId !== model.leafId) {
		return yield* pathContextSteps(yield* getBranchSteps(model, leafId), modelSources(model, leafId));
	}
	let context = cache.get(model);
	if (context === undefined) {
		context = yield* pathContextSteps(yield* getBranchSteps(model), modelSources(model, undefined));
		// Computed meanwhile by a caller that did not wait: that one is kept.
		context = cache.get(model) ?? context;
		cache.set(model, context);
	}
	return context;
}

/**
 * Lets a freshly appended snapshot reuse its predecessor's context when the new entries simply
 * continue the previous leaf (the common case: Pi appending to the active branch). Anything else
 * (a new branch, a compaction, a context edit, which changes earlier messages) is left to a full
 * rebuild on first use.
 */
export function seedAppendedContext(previous: SessionModel, next: SessionModel, added: readonly SessionEntry[]): void {
	const base = cache.get(previous);
	if (base === undefined || added.length === 0) {
		return;
	}
	let parent = previous.leafId;
	for (const entry of added) {
		if (entry.parentId !== parent || entry.type === 'compaction' || entry.type === 'context_edit' || base.edits.has(entry.id)) {
			return;
		}
		parent = entry.id;
	}
	const messages = base.messages.slice();
	let { thinkingLevel, model } = base;
	for (const entry of added) {
		({ thinkingLevel, model } = settingsAfter(entry, thinkingLevel, model));
		for (const message of editedEntryMessages(entry, undefined)) {
			messages.push(message);
		}
	}
	cache.set(next, { messages, sources: modelSources(next, undefined), edits: base.edits, omitted: base.omitted, thinkingLevel, model });
}

/** The sources of the context of `model` at `leafId`, worked out again from the model when asked for. */
function modelSources(model: SessionModel, leafId: string | null | undefined): ContextSources {
	return new ContextSources(function* () {
		return yield* projectedSourcesSteps(yield* getBranchSteps(model, leafId));
	});
}

/** The context of a path given as its entries, root → leaf (the previous call's, in the preview). */
export function* pathContextSteps(path: readonly SessionEntry[], sources = new ContextSources(() => projectedSourcesSteps(path))): Steps<SessionContext> {
	let thinkingLevel = 'off';
	let model: ModelRef | null = null;
	for (let at = 0; at < path.length; at++) {
		if (paced(at)) {
			yield;
		}
		({ thinkingLevel, model } = settingsAfter(path[at] as SessionEntry, thinkingLevel, model));
	}
	const { selected, edits } = yield* selectedEntriesSteps(path);
	const messages: ContextMessage[] = [];
	const omitted: SessionEntry[] = [];
	for (let at = 0; at < selected.length; at++) {
		if (paced(at)) {
			yield;
		}
		const entry = selected[at] as SessionEntry;
		const edit = edits.size === 0 ? undefined : edits.get(entry.id);
		if (edit === undefined) {
			pushEntryMessages(entry, messages);
			continue;
		}
		const contributed = editedEntryMessages(entry, edit);
		for (const message of contributed) {
			messages.push(message);
		}
		if (contributed.length === 0 && entryMessageCount(entry) > 0) {
			omitted.push(entry);
		}
	}
	return { messages, sources, edits, omitted, thinkingLevel, model };
}

/** The entry of each message of the path's context (the same selection and edits as the context's). */
function* projectedSourcesSteps(path: readonly SessionEntry[]): Steps<readonly SessionEntry[]> {
	const { selected, edits } = yield* selectedEntriesSteps(path);
	const sources: SessionEntry[] = [];
	for (let at = 0; at < selected.length; at++) {
		if (paced(at)) {
			yield;
		}
		const entry = selected[at] as SessionEntry;
		const edit = edits.size === 0 ? undefined : edits.get(entry.id);
		const count = edit === undefined ? entryMessageCount(entry) : editedEntryMessages(entry, edit).length;
		for (let i = 0; i < count; i++) {
			sources.push(entry);
		}
	}
	return sources;
}

/**
 * Pi's selection of the entries that give the context (`buildContextEntries`), in order, without an
 * older compaction inside the kept range (only the newest one gives its checkpoint and summary), and
 * the latest edit of each target among them.
 */
function* selectedEntriesSteps(path: readonly SessionEntry[]): Steps<{ selected: readonly SessionEntry[]; edits: ReadonlyMap<string, ContextEditEntry> }> {
	let compactionAt = -1;
	let edited = false;
	for (let at = 0; at < path.length; at++) {
		if (paced(at)) {
			yield;
		}
		const type = (path[at] as SessionEntry).type;
		compactionAt = type === 'compaction' ? at : compactionAt;
		edited ||= type === 'context_edit';
	}
	const selected = compactionAt < 0 ? path : yield* compactedEntries(path, compactionAt);
	return { selected, edits: edited ? yield* latestEdits(selected) : NO_EDITS };
}

/** Pi's `buildContextEntries` with a compaction on the path: the compaction, the kept entries, the rest. */
function* compactedEntries(path: readonly SessionEntry[], lastCompactionAt: number): Steps<SessionEntry[]> {
	const compaction = path[lastCompactionAt] as SessionEntry & { readonly type: 'compaction' };
	// Pi locates the compaction by its id (the first path entry with that id).
	const at = path.findIndex((entry) => entry.id === compaction.id);
	const selected: SessionEntry[] = [compaction];
	let kept = false;
	for (let i = 0; i < at; i++) {
		if (paced(i)) {
			yield;
		}
		const entry = path[i] as SessionEntry;
		kept ||= entry.id === compaction.firstKeptEntryId;
		// An older compaction in the kept range gives nothing: only the newest (first) one contributes.
		if (kept && !(entry.type === 'message' && entry.message.role === 'system') && entry.type !== 'compaction') {
			selected.push(entry);
		}
	}
	for (let i = at + 1; i < path.length; i++) {
		selected.push(path[i] as SessionEntry);
	}
	return selected;
}

/** The latest edit of each target among the selected entries (later ones replace earlier ones). */
function* latestEdits(selected: readonly SessionEntry[]): Steps<ReadonlyMap<string, ContextEditEntry>> {
	let edits: Map<string, ContextEditEntry> | undefined;
	for (let at = 0; at < selected.length; at++) {
		if (paced(at)) {
			yield;
		}
		const entry = selected[at] as SessionEntry;
		if (entry.type === 'context_edit') {
			(edits ??= new Map()).set(entry.targetId, entry);
		}
	}
	return edits ?? NO_EDITS;
}

function settingsAfter(entry: SessionEntry, thinkingLevel: string, model: ModelRef | null): { thinkingLevel: string; model: ModelRef | null } {
	switch (entry.type) {
		case 'thinking_level_change':
			return { thinkingLevel: entry.thinkingLevel, model };
		case 'model_change':
			return { thinkingLevel, model: { provider: entry.provider, modelId: entry.modelId } };
		case 'message':
			return entry.message.role === 'assistant'
				? { thinkingLevel, model: { provider: entry.message.provider, modelId: entry.message.model } }
				: { thinkingLevel, model };
		case 'compaction':
		case 'branch_summary':
		case 'context_edit':
		case 'usage':
		case 'custom':
		case 'custom_message':
		case 'label':
		case 'session_info':
		case 'opaque':
			return { thinkingLevel, model };
	}
	return unreachable(entry);
}

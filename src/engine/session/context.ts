/**
 * Pi's `buildSessionContext`: the messages of the active branch, as Pi hands them to extensions
 * and, after `convertToLlm`, to the provider. Pure.
 *
 * Semantics (Pi's session manager, `buildSessionContext`): walk root → leaf; the last `thinking_level_change` gives
 * the thinking level, the last `model_change` or assistant message the model; with a compaction on
 * the path, emit its summary first, then the path entries before it starting at `firstKeptEntryId`
 * (none when that id is not on the path), then everything after it. `message` entries give their
 * message, `custom_message` entries a `custom` message, non-empty `branch_summary` entries a
 * `branchSummary` message; every other entry type is skipped.
 */
import { getBranchSteps } from './branch';
import type { ModelRef, SessionContext, SessionModel } from './model';
import type { AgentMessage, CompactionEntry, CustomMessage, CustomMessageEntry, SessionEntry } from './types';
import { paced, runSteps, type Steps } from '../steps';

const cache = new WeakMap<SessionModel, SessionContext>();

export function buildSessionContext(model: SessionModel, leafId?: string | null): SessionContext {
	return runSteps(buildSessionContextSteps(model, leafId));
}

/** The same, yielding between pieces of work (see `src/engine/steps.ts`). */
export function* buildSessionContextSteps(model: SessionModel, leafId?: string | null): Steps<SessionContext> {
	if (leafId !== undefined && leafId !== model.leafId) {
		return yield* contextOfPath(yield* getBranchSteps(model, leafId));
	}
	let context = cache.get(model);
	if (context === undefined) {
		context = yield* contextOfPath(yield* getBranchSteps(model));
		// Computed meanwhile by a caller that did not wait: that one is kept.
		context = cache.get(model) ?? context;
		cache.set(model, context);
	}
	return context;
}

/**
 * Lets a freshly appended snapshot reuse its predecessor's context when the new entries simply
 * continue the previous leaf (the common case: Pi appending to the active branch). Anything else
 * (a new branch, a compaction) is left to a full rebuild on first use.
 */
export function seedAppendedContext(previous: SessionModel, next: SessionModel, added: readonly SessionEntry[]): void {
	const base = cache.get(previous);
	if (base === undefined || added.length === 0) {
		return;
	}
	let parent = previous.leafId;
	for (const entry of added) {
		if (entry.parentId !== parent || entry.type === 'compaction') {
			return;
		}
		parent = entry.id;
	}
	const messages = base.messages.slice();
	let { thinkingLevel, model } = base;
	for (const entry of added) {
		({ thinkingLevel, model } = settingsAfter(entry, thinkingLevel, model));
		appendMessageOf(entry, messages);
	}
	cache.set(next, { messages, thinkingLevel, model });
}

function* contextOfPath(path: readonly SessionEntry[]): Steps<SessionContext> {
	let thinkingLevel = 'off';
	let model: ModelRef | null = null;
	let compactionAt = -1;
	for (let at = 0; at < path.length; at++) {
		if (paced(at)) {
			yield;
		}
		const entry = path[at] as SessionEntry;
		({ thinkingLevel, model } = settingsAfter(entry, thinkingLevel, model));
		if (entry.type === 'compaction') {
			compactionAt = at;
		}
	}
	const messages: AgentMessage[] = [];
	if (compactionAt < 0) {
		for (let at = 0; at < path.length; at++) {
			if (paced(at)) {
				yield;
			}
			appendMessageOf(path[at] as SessionEntry, messages);
		}
		return { messages, thinkingLevel, model };
	}
	const compaction = path[compactionAt] as CompactionEntry;
	messages.push({
		role: 'compactionSummary',
		summary: compaction.summary,
		tokensBefore: compaction.tokensBefore,
		timestamp: Date.parse(compaction.timestamp),
	});
	let kept = false;
	for (let at = 0; at < compactionAt; at++) {
		const entry = path[at] as SessionEntry;
		kept ||= entry.id === compaction.firstKeptEntryId;
		if (kept) {
			appendMessageOf(entry, messages);
		}
	}
	for (let at = compactionAt + 1; at < path.length; at++) {
		if (paced(at)) {
			yield;
		}
		appendMessageOf(path[at] as SessionEntry, messages);
	}
	return { messages, thinkingLevel, model };
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
		default:
			return { thinkingLevel, model };
	}
}

function appendMessageOf(entry: SessionEntry, messages: AgentMessage[]): void {
	switch (entry.type) {
		case 'message':
			messages.push(entry.message);
			return;
		case 'custom_message':
			messages.push(customMessageOf(entry));
			return;
		case 'branch_summary':
			if (entry.summary) {
				messages.push({ role: 'branchSummary', summary: entry.summary, fromId: entry.fromId, timestamp: Date.parse(entry.timestamp) });
			}
			return;
		default:
			return;
	}
}

/** The `custom` message Pi makes of a `custom_message` entry (its timestamp parsed to epoch ms). */
export function customMessageOf(entry: CustomMessageEntry): CustomMessage {
	return {
		role: 'custom',
		customType: entry.customType,
		content: entry.content,
		display: entry.display,
		details: entry.details,
		timestamp: Date.parse(entry.timestamp),
	};
}

/**
 * What one entry of the active context contributes to Pi's context, as Pi 1.6.0 projects it
 * (`sessionEntryToContextMessages`, then the entry's latest `context_edit`). Pure.
 *
 * - `message` → its message (a `system` one included: Pi 1.x stores the prompt and tools there);
 * - `custom_message` → a `custom` message; a non-empty `branch_summary` → a `branchSummary` message;
 * - the newest `compaction` → its `systemMessage` checkpoint when it has one, then its summary;
 * - every other entry (`custom`, `usage`, `context_edit`, labels, unknown types…) → nothing.
 *
 * Each switch names every entry type and has no `default:`: a type added to `SessionEntry` does not
 * compile until each says what it contributes.
 *
 * An edit with `replacement: null` leaves out whatever the entry gave; otherwise it replaces the content
 * of a user, assistant, tool-result or custom message (a string becomes one text block for the two
 * roles whose content is a list) and leaves every other field, and every other role, as it was.
 */
import { unreachable } from '../../base/unreachable';
import type {
	AssistantContent, BranchSummaryMessage, CompactionEntry, CompactionSummaryMessage, ContextEditEntry, ContextMessage,
	CustomMessage, CustomMessageEntry, SessionEntry, UserContent,
} from './types';

/** What most entries (state, settings, labels) contribute: one shared empty list, not a new one each. */
const NOTHING: readonly ContextMessage[] = [];

/** Appends the messages `entry` contributes, before any edit, to `into` (the hot path: no list of its own). */
export function pushEntryMessages(entry: SessionEntry, into: ContextMessage[]): void {
	switch (entry.type) {
		case 'message':
			into.push(entry.message);
			return;
		case 'custom_message':
			into.push(customMessageOf(entry));
			return;
		case 'branch_summary':
			if (entry.summary) {
				into.push(branchSummaryOf(entry.summary, entry.fromId, entry.timestamp));
			}
			return;
		case 'compaction':
			into.push(...compactionMessages(entry));
			return;
		case 'model_change':
		case 'thinking_level_change':
		case 'context_edit':
		case 'usage':
		case 'custom':
		case 'label':
		case 'session_info':
		case 'opaque':
			return;
	}
	unreachable(entry);
}

/** How many messages `entry` contributes, before any edit. */
export function entryMessageCount(entry: SessionEntry): number {
	switch (entry.type) {
		case 'message':
		case 'custom_message':
			return 1;
		case 'branch_summary':
			return entry.summary ? 1 : 0;
		case 'compaction':
			return entry.systemMessage ? 2 : 1;
		case 'model_change':
		case 'thinking_level_change':
		case 'context_edit':
		case 'usage':
		case 'custom':
		case 'label':
		case 'session_info':
		case 'opaque':
			return 0;
	}
	return unreachable(entry);
}

/** The messages `entry` contributes, before any edit. */
export function entryMessages(entry: SessionEntry): readonly ContextMessage[] {
	switch (entry.type) {
		case 'message':
			return [entry.message];
		case 'custom_message':
			return [customMessageOf(entry)];
		case 'branch_summary':
			return entry.summary ? [branchSummaryOf(entry.summary, entry.fromId, entry.timestamp)] : NOTHING;
		case 'compaction':
			return compactionMessages(entry);
		case 'model_change':
		case 'thinking_level_change':
		case 'context_edit':
		case 'usage':
		case 'custom':
		case 'label':
		case 'session_info':
		case 'opaque':
			return NOTHING;
	}
	return unreachable(entry);
}

/** The same with the entry's latest edit applied (`edit` undefined: none). */
export function editedEntryMessages(entry: SessionEntry, edit: ContextEditEntry | undefined): readonly ContextMessage[] {
	const messages = entryMessages(entry);
	if (edit === undefined) {
		return messages;
	}
	const replacement = edit.replacement;
	if (replacement === null) {
		return NOTHING;
	}
	return messages.map((message) => withContent(message, replacement.content));
}

function withContent(message: ContextMessage, content: string | readonly (UserContent | AssistantContent)[]): ContextMessage {
	switch (message.role) {
		case 'assistant':
			return { ...message, content: (typeof content === 'string' ? [{ type: 'text', text: content }] : content) as readonly AssistantContent[] };
		case 'toolResult':
			return { ...message, content: (typeof content === 'string' ? [{ type: 'text', text: content }] : content) as readonly UserContent[] };
		case 'user':
			return { ...message, content: content as string | readonly UserContent[] };
		case 'custom':
			return { ...message, content: content as string | readonly UserContent[] };
		case 'system':
		case 'bashExecution':
		case 'branchSummary':
		case 'compactionSummary':
			return message;
	}
	return unreachable(message);
}

/** The checkpoint (Pi 1.x) and the summary of the compaction the context starts from. */
function compactionMessages(entry: CompactionEntry): readonly ContextMessage[] {
	const summary: CompactionSummaryMessage = {
		role: 'compactionSummary',
		summary: entry.summary,
		tokensBefore: entry.tokensBefore,
		timestamp: Date.parse(entry.timestamp),
	};
	return entry.systemMessage ? [entry.systemMessage, summary] : [summary];
}

function branchSummaryOf(summary: string, fromId: string, timestamp: string): BranchSummaryMessage {
	return { role: 'branchSummary', summary, fromId, timestamp: Date.parse(timestamp) };
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

/**
 * Is the session's leaf inside a tool-call turn that has not finished? Pure.
 *
 * Pi writes an assistant message with tool calls, then one `toolResult` entry per call. Anything
 * appended between the two ends up between a call and its result on the path, which makes
 * providers see "No result provided" for the call and an orphaned real result after it.
 * So a write must wait until every call of the latest assistant
 * message has its result, or a user message has closed the turn.
 */
import type { SessionEntry, SessionModel } from '../session';

export interface OpenToolTurn {
	/** The assistant message entry whose tool calls are waiting for results. */
	readonly assistantEntryId: string;
	readonly missingToolCallIds: readonly string[];
}

/**
 * Walks the active path back from `leafId` (default: the model's leaf, the last entry in file
 * order) to the latest assistant or user message. Entries that are not messages (custom state,
 * labels, model changes) do not close a turn and are skipped.
 */
export function findOpenToolTurn(model: SessionModel, leafId: string | null = model.leafId): OpenToolTurn | undefined {
	const answered = new Set<string>();
	// A parentId cycle cannot be longer than the file; stop there instead of looping.
	let budget = model.entries.length;
	let current: SessionEntry | undefined = leafId === null ? undefined : model.entryById(leafId);
	while (current !== undefined && budget-- > 0) {
		if (current.type === 'message') {
			const message = current.message;
			if (message.role === 'toolResult') {
				answered.add(message.toolCallId);
			} else if (message.role === 'user' || message.role === 'bashExecution') {
				return undefined;
			} else if (message.role === 'assistant') {
				// Pi never runs the calls of an aborted or failed message, and providers never see it.
				if (message.stopReason === 'aborted' || message.stopReason === 'error') {
					return undefined;
				}
				const missing = message.content.flatMap((block) => block.type === 'toolCall' && !answered.has(block.id) ? [block.id] : []);
				return missing.length === 0 ? undefined : { assistantEntryId: current.id, missingToolCallIds: missing };
			}
		}
		current = current.parentId === null ? undefined : model.entryById(current.parentId);
	}
	return undefined;
}

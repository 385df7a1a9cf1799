/**
 * The previous LLM call, reconstructed from the branch: the last completed assistant reply, the
 * raw context it answered and the pi-condense entries that existed when it was requested. Pure.
 *
 * pi-condense flushes at `message_end`, before Pi writes the reply, so the flush's entries sit in
 * the file before the reply although they were written after the request. The entry timestamps
 * tell them apart: a pi-condense entry (custom or custom message) counts for the call only when it
 * was written no later than the reply's own timestamp.
 *
 * A `context_edit` written after the reply (Pi 1.x) changed today's context, not the one the call was
 * sent: then that call's context is built again from the branch as it was.
 */
import { pathContextSteps } from '../session/context';
import type { ContextMessage, AssistantMessage, SessionEntry } from '../session/types';
import { paced, type Steps } from '../steps';

export interface PreviousCall {
	/** The reply; its `usage` holds the real figures of that call. */
	readonly reply: AssistantMessage;
	/** Index of the reply in the raw context. */
	readonly replyIndex: number;
	/** The raw messages the call was sent (before pi-condense's transform). */
	readonly rawMessages: readonly ContextMessage[];
	/** The branch as it was when the call was requested. */
	readonly branch: readonly SessionEntry[];
}

/** Pi's rule for the last call with usable figures: the last assistant that did not fail or abort. */
export function lastCompletedReply(messages: readonly ContextMessage[]): number {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i];
		if (message?.role === 'assistant' && message.stopReason !== 'error' && message.stopReason !== 'aborted') {
			return i;
		}
	}
	return -1;
}

/** The previous LLM call (the last completed reply and the context it answered), in steps (see `src/engine/steps.ts`). */
export function* previousCallSteps(
	branch: readonly SessionEntry[],
	messages: readonly ContextMessage[],
	entryIds: readonly (string | undefined)[],
): Steps<PreviousCall | undefined> {
	const replyIndex = lastCompletedReply(messages);
	const reply = messages[replyIndex];
	if (reply?.role !== 'assistant') {
		return undefined;
	}
	// A message object sits in one entry (an edited reply is a new object: its entry is found by id):
	// looked for from the end, where the last reply is.
	const replyId = entryIds[replyIndex];
	let replyEntry = -1;
	let editedLater = false;
	for (let i = branch.length - 1; i >= 0; i--) {
		const entry = branch[i] as SessionEntry;
		if (entry.type === 'message' && (entry.message === reply || (replyId !== undefined && entry.id === replyId))) {
			replyEntry = i;
			break;
		}
		editedLater ||= entry.type === 'context_edit';
	}
	if (replyEntry < 0) {
		return undefined;
	}
	const callBranch: SessionEntry[] = [];
	const lateIds = new Set<string>();
	for (let i = 0; i < replyEntry; i++) {
		if (paced(i)) {
			yield;
		}
		const entry = branch[i] as SessionEntry;
		const late = (entry.type === 'custom' || entry.type === 'custom_message') && Date.parse(entry.timestamp) > reply.timestamp;
		if (late) {
			lateIds.add(entry.id);
		} else {
			callBranch.push(entry);
		}
	}
	if (editedLater) {
		return { reply, replyIndex, rawMessages: (yield* pathContextSteps(callBranch)).messages, branch: callBranch };
	}
	const rawMessages: ContextMessage[] = [];
	for (let i = 0; i < replyIndex; i++) {
		if (paced(i)) {
			yield;
		}
		const id = entryIds[i];
		if (id === undefined || !lateIds.has(id)) {
			rawMessages.push(messages[i] as ContextMessage);
		}
	}
	return { reply, replyIndex, rawMessages, branch: callBranch };
}

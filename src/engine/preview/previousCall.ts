/**
 * The previous LLM call, reconstructed from the branch: the last completed assistant reply, the
 * raw context it answered and the pi-condense entries that existed when it was requested. Pure.
 *
 * pi-condense flushes at `message_end`, before Pi writes the reply, so the flush's entries sit in
 * the file before the reply although they were written after the request. The entry timestamps
 * tell them apart: a pi-condense entry (custom or custom message) counts for the call only when it
 * was written no later than the reply's own timestamp.
 */
import type { AgentMessage, AssistantMessage, SessionEntry } from '../session/types';

export interface PreviousCall {
	/** The reply; its `usage` holds the real figures of that call. */
	readonly reply: AssistantMessage;
	/** Index of the reply in the raw context. */
	readonly replyIndex: number;
	/** The raw messages the call was sent (before pi-condense's transform). */
	readonly rawMessages: readonly AgentMessage[];
	/** The branch as it was when the call was requested. */
	readonly branch: readonly SessionEntry[];
}

/** Pi's rule for the last call with usable figures: the last assistant that did not fail or abort. */
export function lastCompletedReply(messages: readonly AgentMessage[]): number {
	for (let i = messages.length - 1; i >= 0; i--) {
		const message = messages[i];
		if (message?.role === 'assistant' && message.stopReason !== 'error' && message.stopReason !== 'aborted') {
			return i;
		}
	}
	return -1;
}

export function previousCall(
	branch: readonly SessionEntry[],
	messages: readonly AgentMessage[],
	entryIds: readonly (string | undefined)[],
): PreviousCall | undefined {
	const replyIndex = lastCompletedReply(messages);
	const reply = messages[replyIndex];
	if (reply?.role !== 'assistant') {
		return undefined;
	}
	const replyEntry = branch.findIndex((entry) => entry.type === 'message' && entry.message === reply);
	if (replyEntry < 0) {
		return undefined;
	}
	const late = (entry: SessionEntry): boolean =>
		(entry.type === 'custom' || entry.type === 'custom_message') && Date.parse(entry.timestamp) > reply.timestamp;
	const callBranch = branch.slice(0, replyEntry).filter((entry) => !late(entry));
	const lateIds = new Set(branch.slice(0, replyEntry).filter(late).map((entry) => entry.id));
	const rawMessages = messages.slice(0, replyIndex).filter((_, i) => {
		const id = entryIds[i];
		return id === undefined || !lateIds.has(id);
	});
	return { reply, replyIndex, rawMessages, branch: callBranch };
}

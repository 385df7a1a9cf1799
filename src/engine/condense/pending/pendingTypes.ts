/**
 * Tool-call batches waiting to be summarized, as pi-condense captures them from the branch. Types.
 * Field names follow pi-condense's `CapturedBatch` so the flush can persist records from them.
 */

export interface PendingCall {
	readonly toolCallId: string;
	readonly toolName: string;
	readonly args: Readonly<Record<string, unknown>>;
	/** Text parts of the result joined with `\n`. */
	readonly resultText: string;
	readonly isError: boolean;
	readonly resultTimestamp: number;
	/** The key the release files it under: `id@resultTimestamp` from 2.6.0, the bare id before. */
	readonly key: string;
}

export interface PendingBatch {
	/** Index of the (last) assistant message over every assistant on the branch, 0-based. */
	readonly turnIndex: number;
	/** Epoch ms of the (last) assistant entry. */
	readonly timestamp: number;
	/** Text blocks of the assistant message(s), trimmed. */
	readonly assistantText: string;
	readonly toolCalls: readonly PendingCall[];
	/** Number of user messages before it on the branch: batches of one user turn share it. */
	readonly userTurnGroup: number;
	/** Sum of the result texts' lengths. */
	readonly rawChars: number;
}

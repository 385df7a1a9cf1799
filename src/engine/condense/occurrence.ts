/**
 * Occurrence keys and message text helpers. Pure.
 *
 * Providers reuse tool-call ids (`bash_23` in turn 3 and again in turn 40), so a bare id does not
 * name one tool call. pi-condense 2.6.0 (the fix for its bug #8) names an occurrence by the id plus
 * the timestamp of its tool result message: `bash_23@1796020564484`; without a timestamp the key is
 * the bare id (records written before 2.6.0). Releases before 2.6.0 key everything by the bare id.
 */
import type { ContextMessage, CustomMessage, ToolResultMessage, UserContent } from '../session/types';

/** `id@resultTimestamp`, or the bare id when there is no timestamp (pi-condense's `occKey`). */
export function occurrenceKey(toolCallId: string, resultTimestamp: number | undefined): string {
	return resultTimestamp === undefined ? toolCallId : `${toolCallId}@${resultTimestamp}`;
}

/** The key of a tool result message: its id at its timestamp, when that is a number. */
export function resultOccurrenceKey(message: ToolResultMessage): string {
	return occurrenceKey(message.toolCallId, numericTimestamp(message.timestamp));
}

/** A timestamp read from a message or an entry, or undefined when it is not a number. */
export function numericTimestamp(value: unknown): number | undefined {
	return typeof value === 'number' ? value : undefined;
}

/**
 * Splits a key at its last `@`. It is an occurrence key only when that `@` is not the first
 * character and what follows is all decimal digits; anything else is a bare id.
 */
export function parseOccurrenceKey(key: string): { readonly toolCallId: string; readonly resultTimestamp?: number } {
	const at = key.lastIndexOf('@');
	if (at <= 0) {
		return { toolCallId: key };
	}
	const suffix = key.slice(at + 1);
	return /^\d+$/.test(suffix) ? { toolCallId: key.slice(0, at), resultTimestamp: Number(suffix) } : { toolCallId: key };
}

/** The tool-call id part of a key (the whole key when it is bare). */
export function bareToolCallId(key: string): string {
	return parseOccurrenceKey(key).toolCallId;
}

/** Text parts of a message content joined with `\n` (pi-condense's rule for result text). */
export function contentText(content: string | readonly UserContent[]): string {
	if (typeof content === 'string') {
		return content;
	}
	const texts: string[] = [];
	for (const part of content) {
		if (part.type === 'text') {
			texts.push(part.text);
		}
	}
	return texts.join('\n');
}

export function isSummaryMessage(message: ContextMessage, summaryType: string): message is CustomMessage {
	return message.role === 'custom' && message.customType === summaryType;
}

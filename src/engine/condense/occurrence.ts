/**
 * Occurrence keys and message text helpers. Pure.
 *
 * Providers reuse tool-call ids (`bash_23` in turn 3 and again in turn 40), so a bare id does not
 * name one tool call. Like pi-condense 2.6.0 (the fix for its bug #8) we name an occurrence by the
 * id plus the timestamp of its tool result message: `bash_23@1796020564484`. A record whose result
 * could not be found on the branch keeps its bare id as key.
 */
import type { AgentMessage, CustomMessage, ToolResultMessage, UserContent } from '../session/types';

export function occurrenceKey(toolCallId: string, resultTimestamp: number): string {
	return `${toolCallId}@${resultTimestamp}`;
}

export function resultOccurrenceKey(message: ToolResultMessage): string {
	return occurrenceKey(message.toolCallId, message.timestamp);
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

export function isSummaryMessage(message: AgentMessage, summaryType: string): message is CustomMessage {
	return message.role === 'custom' && message.customType === summaryType;
}

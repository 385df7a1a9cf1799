/**
 * Removing thinking blocks from an assistant message, all of them or none (a provider rejects a
 * partial or edited thinking sequence). Pure.
 */
import type { AssistantMessage } from '../../session/types';

export function hasThinking(message: AssistantMessage): boolean {
	return message.content.some((block) => block.type === 'thinking');
}

/** The message without any thinking block (signatures go with them); the same message when it has none. */
export function withoutThinking(message: AssistantMessage): AssistantMessage {
	return hasThinking(message) ? { ...message, content: message.content.filter((block) => block.type !== 'thinking') } : message;
}

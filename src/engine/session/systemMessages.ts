/**
 * Pi 1.x's system messages around extensions' `context` handlers. Pure.
 *
 * Pi hands a handler its context without the system messages (`conversationOf`). When the handler's
 * result is the very conversation it was given (the same message objects), the system messages stay
 * where they were; when it changed anything, Pi sends one leading system message replayed from all of
 * them (`currentSystemMessage`, pi-ai's `getCurrentSystemMessage`) followed by the result
 * (`restoreSystemMessages`, Pi's extension runner). pi-condense's rules therefore never touch them.
 */
import type { AgentMessage, ContextMessage, SystemMessage, TextContent, ToolDeclaration } from './types';

/** The conversation a `context` handler sees: `messages` itself when it holds no system message. */
export function conversationOf(messages: readonly ContextMessage[]): readonly AgentMessage[] {
	let system = 0;
	for (const message of messages) {
		if (message.role === 'system') {
			system++;
		}
	}
	return system === 0 ? messages as readonly AgentMessage[] : messages.filter((message): message is AgentMessage => message.role !== 'system');
}

/**
 * What Pi sends after a handler returned `returned` for `conversation` (= `conversationOf(messages)`):
 * `messages` itself when nothing changed. A list without system messages gives one without them.
 */
export function restoreSystemMessages<M extends ContextMessage>(messages: readonly M[], conversation: readonly AgentMessage[], returned: readonly AgentMessage[]): readonly (M | AgentMessage)[] {
	if (returned === conversation || sameMessages(returned, conversation)) {
		return messages;
	}
	const head = conversation === messages ? undefined : currentSystemMessage(messages);
	// A head exists only when `messages` holds system messages, so `M` includes them.
	return head ? [head as M, ...returned] : returned;
}

function sameMessages(left: readonly AgentMessage[], right: readonly AgentMessage[]): boolean {
	return left.length === right.length && left.every((message, index) => message === right[index]);
}

/**
 * Every system message replayed into one: their texts joined by a blank line, sections patched by name
 * in order (`null` removes one), tools added and removed by name; the first one's timestamp. Undefined
 * when there is no system message and no tool.
 */
function currentSystemMessage(messages: readonly ContextMessage[]): SystemMessage | undefined {
	const texts: string[] = [];
	const sections = new Map<string, string>();
	const tools = new Map<string, ToolDeclaration>();
	let timestamp: number | undefined;
	for (const message of messages) {
		if (message.role !== 'system') {
			continue;
		}
		timestamp ??= message.timestamp;
		const text = contentText(message.content);
		if (text.length > 0) {
			texts.push(text);
		}
		for (const [name, value] of Object.entries(message.sections ?? {})) {
			if (value === null) {
				sections.delete(name);
			} else {
				sections.set(name, value);
			}
		}
		for (const tool of message.toolsRemoved ?? []) {
			tools.delete(tool.name);
		}
		for (const tool of message.toolsAdded ?? []) {
			tools.set(tool.name, tool);
		}
	}
	if (timestamp === undefined && tools.size === 0) {
		return undefined;
	}
	return {
		role: 'system',
		content: texts.join('\n\n'),
		...(sections.size > 0 ? { sections: Object.fromEntries(sections) } : {}),
		...(tools.size > 0 ? { toolsAdded: [...tools.values()] } : {}),
		timestamp: timestamp ?? 0,
	};
}

/** A system message's prompt as the model reads it: its content, then its sections, blank-line separated. */
export function systemPromptText(message: SystemMessage): string {
	const parts = [contentText(message.content)];
	for (const value of Object.values(message.sections ?? {})) {
		if (value !== null) {
			parts.push(value);
		}
	}
	return parts.filter((part) => part.length > 0).join('\n\n');
}

/** Text of a system message's content (its text blocks joined by newlines). */
function contentText(content: string | readonly TextContent[]): string {
	return typeof content === 'string' ? content : content.filter((block) => block.type === 'text').map((block) => block.text).join('\n');
}

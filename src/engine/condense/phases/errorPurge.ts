/**
 * Phase 2 of the context transform: the arguments of failed tool calls are replaced by a size
 * marker once the error has cooled down. Pure; returns the input array itself when nothing is
 * purged.
 *
 * An errored call's age is the number of assistant messages after the one that issued it. It is
 * purged when the age is at least `cooldownTurns` and its arguments, as JSON, are at least
 * `minArgChars` long: `arguments` becomes `{ "_purged": "<purged-errored-args size=\"N\"/>" }`
 * with N that JSON's length. Only results still marked `isError: true` count, so an errored call
 * that phase 1 already stubbed (stubs are `isError: false`) is never purged. Calls are paired with
 * their results per occurrence (the results following the issuing assistant), so a reused id
 * elsewhere cannot trigger a purge.
 *
 * @example
 * purgeErroredArgs(messages, { enabled: true, cooldownTurns: 2, minArgChars: 500 })
 */
import type { AgentMessage, AssistantContent, AssistantMessage } from '../../session/types';
import type { ErrorPurgeConfig } from '../../config/types';

export function purgeErroredArgs(messages: readonly AgentMessage[], config: ErrorPurgeConfig): readonly AgentMessage[] {
	const erroredTurnByAssistant = erroredCallsByAssistant(messages);
	if (erroredTurnByAssistant.size === 0) {
		return messages;
	}
	const totalTurns = countAssistants(messages);
	let out: AgentMessage[] | undefined;
	for (const [index, errored] of erroredTurnByAssistant) {
		const message = messages[index] as AssistantMessage;
		if (totalTurns - errored.turn < config.cooldownTurns) {
			continue;
		}
		const purged = purgeMessage(message, errored.ids, config.minArgChars);
		if (purged !== message) {
			out ??= messages.slice();
			out[index] = purged;
		}
	}
	return out ?? messages;
}

interface ErroredCalls {
	/** 1-based ordinal of the issuing assistant message. */
	readonly turn: number;
	readonly ids: Set<string>;
}

/** Assistant index → its calls whose result (before the next assistant) is an error. */
function erroredCallsByAssistant(messages: readonly AgentMessage[]): Map<number, ErroredCalls> {
	const out = new Map<number, ErroredCalls>();
	let turn = 0;
	let assistantIndex = -1;
	for (let i = 0; i < messages.length; i++) {
		const message = messages[i];
		if (message?.role === 'assistant') {
			turn++;
			assistantIndex = i;
		} else if (message?.role === 'toolResult' && message.isError === true && assistantIndex >= 0) {
			const calls = out.get(assistantIndex) ?? { turn, ids: new Set<string>() };
			calls.ids.add(message.toolCallId);
			out.set(assistantIndex, calls);
		}
	}
	return out;
}

function countAssistants(messages: readonly AgentMessage[]): number {
	let count = 0;
	for (const message of messages) {
		if (message.role === 'assistant') {
			count++;
		}
	}
	return count;
}

function purgeMessage(message: AssistantMessage, erroredIds: ReadonlySet<string>, minArgChars: number): AssistantMessage {
	let content: AssistantContent[] | undefined;
	message.content.forEach((block, i) => {
		if (block.type !== 'toolCall' || !erroredIds.has(block.id) || isPurgeMarker(block.arguments)) {
			return;
		}
		const size = JSON.stringify(block.arguments).length;
		if (size < minArgChars) {
			return;
		}
		content ??= message.content.slice();
		content[i] = { ...block, arguments: { _purged: `<purged-errored-args size="${size}"/>` } };
	});
	return content ? { ...message, content } : message;
}

/** Already purged (keeps a second pass a no-op even with a tiny `minArgChars`). */
function isPurgeMarker(args: Readonly<Record<string, unknown>>): boolean {
	const keys = Object.keys(args);
	return keys.length === 1 && keys[0] === '_purged' && typeof args._purged === 'string' && args._purged.startsWith('<purged-errored-args ');
}

/**
 * Phase 2 of the context transform: the arguments of failed tool calls are replaced by a size
 * marker once the error has cooled down. Pure; returns the input array itself when nothing is
 * purged.
 *
 * As every release from 2.0.0 to 2.9.1 does it, by bare tool-call id: each errored result
 * (`isError: true`) records the number of assistant messages up to it (the last errored result of
 * an id wins), and every tool call with that id, in any assistant message, is purged when the
 * error's age (assistant messages in total minus that number) is at least `cooldownTurns` and its
 * arguments, as JSON, are at least `minArgChars` long: `arguments` becomes
 * `{ "_purged": "<purged-errored-args size=\"N\"/>" }` with N that JSON's length. So a provider
 * that reuses ids purges the arguments of every call sharing an errored call's id. A result that
 * phase 1 already stubbed is `isError: false`, so a summarized error is never purged.
 *
 * @example
 * runSteps(purgeErroredArgsSteps(messages, { enabled: true, cooldownTurns: 2, minArgChars: 500 }))
 */
import type { ErrorPurgeConfig } from '../../config/types';
import { stringifiedLength } from '../measure/jsonLength';
import type { AgentMessage, AssistantContent, AssistantMessage } from '../../session/types';
import { Pacer, paced, type Steps } from '../../steps';

export function* purgeErroredArgsSteps(messages: readonly AgentMessage[], config: ErrorPurgeConfig): Steps<readonly AgentMessage[]> {
	const erroredAtTurn = new Map<string, number>();
	let turns = 0;
	for (let i = 0; i < messages.length; i++) {
		if (paced(i)) {
			yield;
		}
		const message = messages[i] as AgentMessage;
		if (message.role === 'assistant') {
			turns++;
		} else if (message.role === 'toolResult' && message.isError === true) {
			erroredAtTurn.set(message.toolCallId, turns);
		}
	}
	if (erroredAtTurn.size === 0) {
		return messages;
	}
	let out: AgentMessage[] | undefined;
	// Paced by the arguments serialized too: an errored call may have written a whole file.
	const pacer = new Pacer();
	const serialized = { chars: 0 };
	for (let i = 0; i < messages.length; i++) {
		if (pacer.due(serialized.chars)) {
			yield;
		}
		serialized.chars = 0;
		const message = messages[i] as AgentMessage;
		if (message.role !== 'assistant') {
			continue;
		}
		const purged = purgeMessage(message, erroredAtTurn, turns, config, serialized);
		if (purged !== message) {
			out ??= messages.slice();
			out[i] = purged;
		}
	}
	return out ?? messages;
}

/** `serialized.chars` counts the characters of the arguments serialized to measure them. */
function purgeMessage(message: AssistantMessage, erroredAtTurn: ReadonlyMap<string, number>, turns: number, config: ErrorPurgeConfig, serialized: { chars: number }): AssistantMessage {
	let content: AssistantContent[] | undefined;
	message.content.forEach((block, i) => {
		if (block.type !== 'toolCall') {
			return;
		}
		const errorTurn = erroredAtTurn.get(block.id);
		if (errorTurn === undefined || turns - errorTurn < config.cooldownTurns) {
			return;
		}
		const size = stringifiedLength(block.arguments);
		serialized.chars += size;
		if (size < config.minArgChars) {
			return;
		}
		content ??= message.content.slice();
		content[i] = { ...block, arguments: { _purged: `<purged-errored-args size="${size}"/>` } };
	});
	return content ? { ...message, content } : message;
}

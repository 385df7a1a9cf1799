/**
 * The message list pi-condense 2.7.0+ measures its context metrics over, and its size rule. Pure.
 *
 * It is the session branch, not Pi's context: every `message` entry as its message (compacted
 * ones included, and Pi 1.x's system messages: the release reads the branch's entries, not the
 * conversation Pi hands its `context` handler), and every `custom_message` entry as the `custom`
 * message Pi would make of it.
 * Other entries are left out, and nothing is added for a reply still being written.
 */
import { stringifiedLength } from '../condense/measure/jsonLength';
import { customMessageOf } from '../session/context';
import type { ContextMessage, SessionEntry } from '../session/types';

export function metricsMessages(branch: readonly SessionEntry[]): ContextMessage[] {
	const messages: ContextMessage[] = [];
	for (const entry of branch) {
		if (entry.type === 'message') {
			messages.push(entry.message);
		} else if (entry.type === 'custom_message') {
			messages.push(customMessageOf(entry));
		}
	}
	return messages;
}

/** Serialized length in UTF-16 units, as the release measures a message (key order does not matter). */
export function messageChars(message: unknown): number {
	return stringifiedLength(message);
}

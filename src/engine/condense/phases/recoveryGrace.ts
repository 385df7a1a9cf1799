/**
 * The recovery grace window (pi-condense 2.3.0): `context_tree_query` output the model just
 * recovered stays verbatim for a few user turns instead of being stubbed again. Pure.
 *
 * Counted on the message array before any phase runs: a recovery result's age is the number of
 * `user` messages after it, and it is in grace while that age is at most `graceTurns` (so with 3 it
 * is stubbed once the 4th user message exists). Only real `user` messages count. A recovery result
 * is any tool result named `context_tree_query` with a string id. The set holds bare ids up to
 * 2.5.0, and occurrence keys (the bare id without a timestamp) from 2.6.0. `graceTurns` that is not
 * above 0 turns the window off.
 */
import type { AgentMessage } from '../../session/types';
import { numericTimestamp, occurrenceKey } from '../occurrence';
import type { StateKeying } from '../state/condenseState';
import { paced, type Steps } from '../../steps';

export const RECOVERY_TOOL_NAME = 'context_tree_query';

/** The occurrence keys whose recovered output stays verbatim for `graceTurns` user turns, in steps. */
export function* recoveryGraceKeysSteps(messages: readonly AgentMessage[], graceTurns: number, keying: StateKeying): Steps<ReadonlySet<string>> {
	const inGrace = new Set<string>();
	if (!(graceTurns > 0)) {
		return inGrace;
	}
	let users = 0;
	for (let i = 0; i < messages.length; i++) {
		if (paced(i)) {
			yield;
		}
		if ((messages[i] as AgentMessage).role === 'user') {
			users++;
		}
	}
	let seen = 0;
	for (let i = 0; i < messages.length; i++) {
		if (paced(i)) {
			yield;
		}
		const message = messages[i] as AgentMessage;
		if (message.role === 'user') {
			seen++;
		} else if (message.role === 'toolResult' && message.toolName === RECOVERY_TOOL_NAME && typeof message.toolCallId === 'string' && users - seen <= graceTurns) {
			inGrace.add(keying === 'occurrence' ? occurrenceKey(message.toolCallId, numericTimestamp(message.timestamp)) : message.toolCallId);
		}
	}
	return inGrace;
}

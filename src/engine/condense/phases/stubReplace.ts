/**
 * Phase 1 of the context transform: summarized and aliased tool results become short stubs, with
 * the release's lookup (`stubTarget`). Pure; returns the input array itself when nothing is
 * replaced.
 *
 * For a result the release would stub, in this order: the render-time protection re-check on the
 * record's tool and arguments keeps it verbatim; then the recovery grace (2.3.0+) keeps it verbatim
 * when its key is in the grace set (the bare id up to 2.5.0, so any result sharing the id of an
 * in-grace recovery; its own key from 2.6.0); otherwise the stub, or the spill stub when the record
 * was spilled. A stub keeps `role`, `toolCallId`, `toolName` and `timestamp`, sets `isError: false`
 * and drops `details`.
 *
 * @example
 * runSteps(stubReplaceSteps(messages, state, protectionCheck(config), new Set())) // same array when nothing is summarized
 */
import type { AgentMessage, ToolResultMessage } from '../../session/types';
import type { ProtectionCheck } from '../protection/protectionRules';
import type { CondenseState } from '../state/condenseState';
import { stubTarget } from '../state/indexLookups';
import { spilledStubText, summarizedStubText } from './stubText';
import { paced, type Steps } from '../../steps';

export function* stubReplaceSteps(
	messages: readonly AgentMessage[],
	state: CondenseState,
	isProtected: ProtectionCheck,
	inGrace: ReadonlySet<string>,
): Steps<readonly AgentMessage[]> {
	if (state.records.size === 0 && state.aliases.size === 0) {
		return messages;
	}
	let out: AgentMessage[] | undefined;
	for (let i = 0; i < messages.length; i++) {
		if (paced(i)) {
			yield;
		}
		const message = messages[i];
		if (message?.role !== 'toolResult') {
			continue;
		}
		const stub = stubFor(message, state, isProtected, inGrace);
		if (stub) {
			out ??= messages.slice();
			out[i] = stub;
		}
	}
	return out ?? messages;
}

function stubFor(message: ToolResultMessage, state: CondenseState, isProtected: ProtectionCheck, inGrace: ReadonlySet<string>): ToolResultMessage | undefined {
	const target = stubTarget(state, message);
	if (!target) {
		return undefined;
	}
	const record = target.occurrence?.record;
	if (record && isProtected(record.toolName, record.args)) {
		return undefined;
	}
	if (inGrace.size > 0 && inGrace.has(target.ownKey)) {
		return undefined;
	}
	const text = record?.spillPath ? spilledStubText(record, target.ref) : summarizedStubText(target.ref);
	return {
		role: 'toolResult',
		toolCallId: message.toolCallId,
		toolName: message.toolName,
		content: [{ type: 'text', text }],
		isError: false,
		timestamp: message.timestamp,
	};
}

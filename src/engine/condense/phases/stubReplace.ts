/**
 * Phase 1 of the context transform: summarized and aliased tool results become short stubs. Pure;
 * returns the input array itself when nothing is replaced.
 *
 * A stub keeps `role`, `toolCallId`, `toolName` and `timestamp`, sets `isError: false` and drops
 * `details`. Protection is checked again at render time against the (original) record's tool and
 * arguments, so a pattern added after the fact restores the raw result.
 *
 * @example
 * stubReplace(messages, state, protectionCheck(config)) // same array when nothing is summarized
 */
import type { AgentMessage, ToolResultMessage } from '../../session/types';
import type { ProtectionCheck } from '../protection/protectionRules';
import { coverageOf, type CondenseState } from '../state/condenseState';
import type { ToolCallRecord } from '../types';
import { spilledStubText, summarizedStubText } from './stubText';

export function stubReplace(
	messages: readonly AgentMessage[],
	state: CondenseState,
	isProtected: ProtectionCheck,
): readonly AgentMessage[] {
	if (state.records.size === 0 && state.aliases.size === 0) {
		return messages;
	}
	let out: AgentMessage[] | undefined;
	for (let i = 0; i < messages.length; i++) {
		const message = messages[i];
		if (message?.role !== 'toolResult') {
			continue;
		}
		const stub = stubFor(message, state, isProtected);
		if (stub) {
			out ??= messages.slice();
			out[i] = stub;
		}
	}
	return out ?? messages;
}

function stubFor(message: ToolResultMessage, state: CondenseState, isProtected: ProtectionCheck): ToolResultMessage | undefined {
	const coverage = coverageOf(state, message);
	if (!coverage) {
		return undefined;
	}
	const occurrence = coverage.kind === 'record' ? coverage.occurrence : coverage.alias.original;
	const record: ToolCallRecord | undefined = occurrence?.record;
	if (record && isProtected(record.toolName, record.args)) {
		return undefined;
	}
	const ref = occurrence?.shortRef ?? message.toolCallId;
	const text = record?.spillPath ? spilledStubText(record, ref) : summarizedStubText(ref);
	return {
		role: 'toolResult',
		toolCallId: message.toolCallId,
		toolName: message.toolName,
		content: [{ type: 'text', text }],
		isError: false,
		timestamp: message.timestamp,
	};
}

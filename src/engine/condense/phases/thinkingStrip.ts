/**
 * Phase 4 of the context transform up to pi-condense 2.4.3 (removed in 2.5.0): thinking blocks are
 * removed, all or nothing per message, from older assistant messages. Text and tool calls stay.
 * Pure; returns the input array itself when nothing is stripped.
 *
 * - Live count (2.0.0–2.4.2, and 2.4.3 before its first flush): every assistant message except the
 *   last `max(1, keepLastTurns)` of the array.
 * - Flush boundary (2.4.3, when the frontier carries one): every assistant message whose timestamp
 *   is below the boundary (a missing or non-numeric timestamp is never stripped).
 *
 * @example
 * stripOldThinking(messages, 16)          // live count
 * stripThinkingBefore(messages, boundary) // 2.4.3's flush boundary
 */
import type { AgentMessage } from '../../session/types';
import { hasThinking, withoutThinking } from './thinkingBlocks';

export function stripOldThinking(messages: readonly AgentMessage[], keepLastTurns: number): readonly AgentMessage[] {
	// A non-number would otherwise strip everything; treat it as the floor.
	const keep = Number.isNaN(keepLastTurns) ? 1 : Math.max(1, keepLastTurns);
	let seen = 0;
	let firstKept = messages.length;
	for (let i = messages.length - 1; i >= 0 && seen < keep; i--) {
		if (messages[i]?.role === 'assistant') {
			seen++;
			firstKept = i;
		}
	}
	if (seen < keep) {
		return messages;
	}
	return stripWhere(messages, (_, i) => i < firstKept);
}

export function stripThinkingBefore(messages: readonly AgentMessage[], boundaryTimestamp: number): readonly AgentMessage[] {
	return stripWhere(messages, (message) => typeof message.timestamp === 'number' && message.timestamp < boundaryTimestamp);
}

function stripWhere(messages: readonly AgentMessage[], strip: (message: AgentMessage, index: number) => boolean): readonly AgentMessage[] {
	let out: AgentMessage[] | undefined;
	messages.forEach((message, i) => {
		if (message.role === 'assistant' && hasThinking(message) && strip(message, i)) {
			out ??= messages.slice();
			out[i] = withoutThinking(message);
		}
	});
	return out ?? messages;
}

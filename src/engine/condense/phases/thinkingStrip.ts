/**
 * Phase 4 of the context transform: thinking is kept only on the last `keepLastTurns` assistant
 * messages (clamped to at least 1, so the newest assistant, which may await tool results, always
 * keeps it) and removed, all or nothing per message, from older ones. Text and tool calls stay.
 * Pure; returns the input array itself when nothing is stripped.
 *
 * @example
 * stripOldThinking(messages, 16)
 */
import type { AgentMessage } from '../../session/types';
import { withoutThinking } from './thinkingBlocks';

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
	let out: AgentMessage[] | undefined;
	for (let i = 0; i < firstKept; i++) {
		const message = messages[i];
		if (message?.role === 'assistant') {
			const stripped = withoutThinking(message);
			if (stripped !== message) {
				out ??= messages.slice();
				out[i] = stripped;
			}
		}
	}
	return out ?? messages;
}

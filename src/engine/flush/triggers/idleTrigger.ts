/**
 * The `pruneOn: agent-message` trigger for a session watched from outside Pi. Inside Pi,
 * pi-condense flushes when the agent's final reply (an assistant message without tool calls)
 * ends. From VS Code the equivalent moment is a session whose leaf is such a reply and whose file
 * has been quiet for a while (Pi has stopped writing). Once a flush has written, the leaf is a
 * pruner entry, so the trigger does not fire again for the same reply. Pure.
 */
import type { ContextPruneConfig } from '../../config/types';
import type { SessionEntry } from '../../session/types';

export type IdleFlushDecision =
	| { readonly due: true }
	| { readonly due: false; readonly reason: 'disabled' | 'on-demand' | 'not-a-final-reply' | 'not-quiet' };

export interface IdleFlushInput {
	readonly config: Pick<ContextPruneConfig, 'enabled' | 'pruneOn'>;
	/** The session's leaf entry (last entry in file order). */
	readonly leaf: SessionEntry | undefined;
	readonly fileMtimeMs: number;
	readonly nowMs: number;
	readonly quietMs: number;
}

export function idleFlushDecision(input: IdleFlushInput): IdleFlushDecision {
	if (!input.config.enabled) {
		return { due: false, reason: 'disabled' };
	}
	if (input.config.pruneOn !== 'agent-message') {
		return { due: false, reason: 'on-demand' };
	}
	const leaf = input.leaf;
	const isFinalReply = leaf?.type === 'message' && leaf.message.role === 'assistant'
		&& !leaf.message.content.some((block) => block.type === 'toolCall');
	if (!isFinalReply) {
		return { due: false, reason: 'not-a-final-reply' };
	}
	if (input.nowMs - input.fileMtimeMs < input.quietMs) {
		return { due: false, reason: 'not-quiet' };
	}
	return { due: true };
}

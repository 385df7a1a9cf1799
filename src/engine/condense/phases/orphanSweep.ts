/**
 * Phase 4 from pi-condense 2.6.0: tool results that no open call answers are swept, because a
 * provider rejects a tool result without its call (Pi repairs only the reverse). Pure; returns the
 * input array itself when nothing is swept.
 *
 * One forward pass keeps the set of open call ids: an assistant message replaces it with its own
 * tool-call ids; a tool result whose id is open closes that id and stays, any other tool result is
 * swept (a second result for one id, or one answering an older assistant's call). Any other message
 * leaves the set as it is in 2.6.0–2.9.0; from 2.9.1 it is a barrier that empties it (no role is
 * exempt). A sweep is reported once as the release reports it.
 *
 * @example
 * runSteps(sweepOrphanResultsSteps(messages, 'barrier', (d) => log(d.detail))) // 'swept 1 orphan toolResult(s): bash_23'
 */
import type { OrphanSweepRule } from '../../release/releases';
import type { AgentMessage } from '../../session/types';
import type { ReleaseDiagnostic } from './renderReport';
import { paced, type Steps } from '../../steps';

export function* sweepOrphanResultsSteps(
	messages: readonly AgentMessage[],
	rule: Exclude<OrphanSweepRule, 'none'>,
	report: ((diagnostic: ReleaseDiagnostic) => void) | undefined,
): Steps<readonly AgentMessage[]> {
	let open = new Set<string>();
	let swept: Set<number> | undefined;
	const sweptIds: string[] = [];
	for (let i = 0; i < messages.length; i++) {
		if (paced(i)) {
			yield;
		}
		const message = messages[i] as AgentMessage;
		if (message.role === 'assistant') {
			open = new Set();
			for (const block of message.content) {
				if (block.type === 'toolCall') {
					open.add(block.id);
				}
			}
		} else if (message.role === 'toolResult') {
			if (!open.delete(message.toolCallId)) {
				(swept ??= new Set()).add(i);
				sweptIds.push(message.toolCallId);
			}
		} else if (rule === 'barrier' && open.size > 0) {
			open = new Set();
		}
	}
	if (!swept) {
		return messages;
	}
	const sorted = [...sweptIds].sort();
	const shown = sorted.slice(0, 5).join(', ');
	const more = sorted.length > 5 ? ` ... +${sorted.length - 5} more` : '';
	report?.({ kind: 'orphan-sweep', sweptIds: sorted, detail: `swept ${sweptIds.length} orphan toolResult(s): ${shown}${more}` });
	const keep = swept;
	return messages.filter((_, i) => !keep.has(i));
}

/**
 * The warning for 2.0.0–2.5.x's chain-range defect: messages the id rule dropped that lie outside
 * every compressed chain's own span, i.e. a live turn whose tool-call ids a provider reused. Pure.
 *
 * A chain's span runs from the first user message at its start timestamp to the first assistant
 * after it at its final timestamp (what the chain covered when it was compressed). Only assistant
 * messages and tool results count: a summary outside a span may legitimately cover dropped calls.
 */
import type { ReleaseVersion } from '../../release/releases';
import type { AgentMessage } from '../../session/types';
import type { CondenseState } from '../state/condenseState';
import { idList, type DefectWarning } from './renderReport';

export function liveTurnWarning(messages: readonly AgentMessage[], droppedAt: readonly number[], state: CondenseState, release: ReleaseVersion): DefectWarning | undefined {
	const inside = chainSpans(messages, state);
	const ids: string[] = [];
	let count = 0;
	for (const i of droppedAt) {
		const message = messages[i] as AgentMessage;
		if ((inside[i] ?? 0) > 0 || (message.role !== 'assistant' && message.role !== 'toolResult')) {
			continue;
		}
		count++;
		if (message.role === 'toolResult') {
			ids.push(message.toolCallId);
		} else {
			message.content.forEach((block) => block.type === 'toolCall' && ids.push(block.id));
		}
	}
	if (count === 0) {
		return undefined;
	}
	const distinct = [...new Set(ids)];
	const blocks = state.chains.filter(({ entry }) => entry.droppedToolCallIds.some((id) => distinct.includes(id))).map(({ entry }) => entry.blockId);
	return {
		kind: 'chain-drops-live-turn',
		release,
		fixedIn: '2.6.0',
		toolCallIds: distinct,
		message: `pi-condense ${release} drops ${count} live message(s) outside every compressed chain (tool calls ${idList(distinct)}), `
			+ `because the provider reused tool-call ids of compressed chain(s) ${idList(blocks)}: the model does not see that turn. `
			+ 'Fixed in pi-condense 2.6.0 (each chain is cut at its own position).',
	};
}

/** For each message index, how many chain spans hold it strictly inside (one pass plus one per chain). */
function chainSpans(messages: readonly AgentMessage[], state: CondenseState): number[] {
	const firstUser = new Map<number, number>();
	const assistants = new Map<number, number[]>();
	messages.forEach((message, i) => {
		if (message.role === 'user' && !firstUser.has(message.timestamp)) {
			firstUser.set(message.timestamp, i);
		} else if (message.role === 'assistant') {
			const list = assistants.get(message.timestamp);
			if (list) {
				list.push(i);
			} else {
				assistants.set(message.timestamp, [i]);
			}
		}
	});
	const delta = new Array<number>(messages.length + 1).fill(0);
	for (const { entry } of state.chains) {
		const start = firstUser.get(entry.startUserTimestamp);
		const end = start === undefined || entry.finalAssistantTimestamp === null
			? undefined
			: assistants.get(entry.finalAssistantTimestamp)?.find((i) => i > start);
		if (start !== undefined && end !== undefined) {
			delta[start + 1] = (delta[start + 1] ?? 0) + 1;
			delta[end] = (delta[end] ?? 0) - 1;
		}
	}
	let depth = 0;
	return messages.map((_, i) => (depth += delta[i] ?? 0));
}

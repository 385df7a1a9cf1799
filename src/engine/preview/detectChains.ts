/**
 * Closed conversation chains in a context, by pi-condense's rules, for the what-if simulation of
 * a different rolling window. Pure.
 *
 * A chain starts at a real user message (a synthetic `<compressed-chain>` message does not start
 * one). Tool calls and tool results that follow add their ids to its middle. An assistant message
 * without tool calls closes it. A new user message before that closes it as interrupted (never
 * compressed), and a chain still open at the end is not reported.
 */
import { syntheticBlockId } from '../condense/phases/syntheticChain';
import type { AgentMessage } from '../session/types';

export interface DetectedChain {
	readonly startUserTimestamp: number;
	readonly startIndex: number;
	/** Null when a new user message interrupted the chain. */
	readonly finalAssistantTimestamp: number | null;
	/** Middle tool-call ids in order of appearance, without repeats. */
	readonly middleToolCallIds: readonly string[];
	/** Occurrence keys (`id@resultTimestamp`) of the middle tool results. */
	readonly middleResultKeys: readonly string[];
	/** Tool name and arguments of each middle call, for protection checks. */
	readonly calls: ReadonlyMap<string, { readonly name: string; readonly args: unknown }>;
}

interface OpenChain {
	readonly startUserTimestamp: number;
	readonly startIndex: number;
	readonly ids: string[];
	readonly seen: Set<string>;
	readonly keys: string[];
	readonly calls: Map<string, { readonly name: string; readonly args: unknown }>;
}

export function detectChains(messages: readonly AgentMessage[]): DetectedChain[] {
	const chains: DetectedChain[] = [];
	let open: OpenChain | undefined;
	const close = (final: number | null): void => {
		if (open) {
			const { startUserTimestamp, startIndex, ids, keys, calls } = open;
			chains.push({ startUserTimestamp, startIndex, finalAssistantTimestamp: final, middleToolCallIds: ids, middleResultKeys: keys, calls });
			open = undefined;
		}
	};
	const addId = (chain: OpenChain, id: string): void => {
		if (!chain.seen.has(id)) {
			chain.seen.add(id);
			chain.ids.push(id);
		}
	};
	messages.forEach((message, index) => {
		if (message.role === 'user' && syntheticBlockId(message) === undefined) {
			close(null);
			open = { startUserTimestamp: message.timestamp, startIndex: index, ids: [], seen: new Set(), keys: [], calls: new Map() };
		} else if (open && message.role === 'assistant') {
			const calls = message.content.filter((block) => block.type === 'toolCall');
			if (calls.length === 0) {
				close(message.timestamp);
				return;
			}
			for (const call of calls) {
				addId(open, call.id);
				open.calls.set(call.id, { name: call.name, args: call.arguments });
			}
		} else if (open && message.role === 'toolResult') {
			addId(open, message.toolCallId);
			open.keys.push(`${message.toolCallId}@${message.timestamp}`);
		}
	});
	return chains;
}

/**
 * Chain detection over Pi's context messages (pi-condense's `chain-detector`). Pure.
 *
 * A chain starts at a real user message (a synthetic `<compressed-chain>` message does not start
 * one). Assistant tool calls and tool results add their ids to the chain's middle; calls that are
 * protected (by tool name or `args.path` glob) are also listed as protected. An assistant message
 * without tool calls closes the chain and gives its final timestamp. A user message arriving
 * before that close ends the chain as interrupted (`finalAssistantTimestamp: null`, never
 * eligible). A chain still open at the end is not reported. Identity is by timestamps and
 * tool-call ids, because Pi's messages carry no ids; `startIndex`/`endIndex` locate it in the
 * list and `middleKeys` name the result occurrences (`id@resultTimestamp`) inside it.
 */
import type { ProtectionCheck } from '../condense/protection/protectionRules';
import { resultOccurrenceKey } from '../condense/occurrence';
import { syntheticBlockId } from '../condense/phases/syntheticChain';
import type { ContextMessage } from '../session/types';
import { paced, type Steps } from '../steps';

export interface DetectedChain {
	readonly startUserTimestamp: number;
	readonly finalAssistantTimestamp: number | null;
	/** Every tool-call id of the middle, in order of first appearance, without repeats. */
	readonly middleToolCallIds: readonly string[];
	/** The protected subset of `middleToolCallIds`. */
	readonly protectedToolCallIds: readonly string[];
	/** Occurrence keys of the tool results in the middle. */
	readonly middleKeys: readonly string[];
	readonly startIndex: number;
	/** Index of the closing assistant; -1 for an interrupted chain. */
	readonly endIndex: number;
}

interface OpenChain {
	/** False for a chain the caller skips (already compressed): its boundaries count, its ids are not collected. */
	readonly collect: boolean;
	readonly start: number;
	readonly startUserTimestamp: number;
	readonly ids: string[];
	readonly seen: Set<string>;
	readonly protectedIds: string[];
	readonly keys: string[];
}

/**
 * `skipStarts`: start timestamps of chains the caller drops anyway (those already compressed, which
 * `selectChains` never selects). They are left out of the result rather than built: on a large
 * pruned session they are thousands of chains' id lists, kept only to be filtered out.
 */
export function* detectChainsSteps(messages: readonly ContextMessage[], isProtected: ProtectionCheck, skipStarts?: ReadonlySet<number>): Steps<DetectedChain[]> {
	const chains: DetectedChain[] = [];
	let open: OpenChain | undefined;
	const close = (chain: OpenChain, finalAssistantTimestamp: number | null, endIndex: number): void => {
		if (!chain.collect) {
			return;
		}
		chains.push({
			startUserTimestamp: chain.startUserTimestamp,
			finalAssistantTimestamp,
			middleToolCallIds: chain.ids,
			protectedToolCallIds: chain.protectedIds,
			middleKeys: chain.keys,
			startIndex: chain.start,
			endIndex,
		});
	};
	for (let index = 0; index < messages.length; index++) {
		if (paced(index)) {
			yield;
		}
		const message = messages[index] as ContextMessage;
		if (message.role === 'user' && syntheticBlockId(message) === undefined) {
			if (open) {
				close(open, null, -1);
			}
			open = skipStarts?.has(message.timestamp) === true
				? { collect: false, start: index, startUserTimestamp: message.timestamp, ids: NONE, seen: NO_IDS, protectedIds: NONE, keys: NONE }
				: { collect: true, start: index, startUserTimestamp: message.timestamp, ids: [], seen: new Set(), protectedIds: [], keys: [] };
		} else if (open && message.role === 'assistant') {
			const calls = message.content.filter((block) => block.type === 'toolCall');
			if (calls.length === 0) {
				close(open, message.timestamp, index);
				open = undefined;
				continue;
			}
			for (const call of open.collect ? calls : []) {
				addId(open, call.id, isProtected(call.name, call.arguments));
			}
		} else if (open?.collect === true && message.role === 'toolResult') {
			addId(open, message.toolCallId, isProtected(message.toolName, undefined));
			open.keys.push(resultOccurrenceKey(message));
		}
	}
	return chains;
}

/** Shared by skipped chains, which never add to them (frozen: an add would throw). */
const NONE = Object.freeze([]) as unknown as string[];
const NO_IDS = new Set<string>();

function addId(chain: OpenChain, id: string, isProtected: boolean): void {
	if (chain.seen.has(id)) {
		return;
	}
	chain.seen.add(id);
	chain.ids.push(id);
	if (isProtected) {
		chain.protectedIds.push(id);
	}
}

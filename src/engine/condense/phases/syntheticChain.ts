/**
 * The synthetic user message that stands in for a compressed chain. Pure.
 *
 * Text, byte-exact with pi-condense: `<compressed-chain id="bN" tools="t1,t2">`, a newline, the
 * body (with `{bN}` placeholders resolved), each relocated protected output as a blank line plus
 * `<protected-output tool="name">\n…\n</protected-output>`, a newline and `</compressed-chain>`. Its
 * timestamp is the chain's `compressedAt`.
 */
import type { AgentMessage, ContextMessage, UserMessage } from '../../session/types';
import type { CondenseState } from '../state/condenseState';
import type { ChainCompressionEntry } from '../types';
import { substituteBlockRefs, type BlockBodyLookup } from './blockRefs';
import { paced, type Steps } from '../../steps';

export interface ProtectedOutput {
	readonly tool: string;
	readonly text: string;
}

export function syntheticChainMessage(
	entry: ChainCompressionEntry,
	body: string,
	lookup: BlockBodyLookup,
	protectedOutputs: readonly ProtectedOutput[],
): UserMessage {
	const resolved = substituteBlockRefs(body, lookup, entry.blockId);
	const blocks = protectedOutputs.map((p) => `\n\n<protected-output tool="${p.tool}">\n${p.text}\n</protected-output>`).join('');
	const text = `<compressed-chain id="${entry.blockId}" tools="${entry.toolRefs.join(',')}">\n${resolved}${blocks}\n</compressed-chain>`;
	return { role: 'user', content: [{ type: 'text', text }], timestamp: entry.compressedAt };
}

const SYNTHETIC_PREFIX = /^<compressed-chain id="([^"]+)"/;

/**
 * Block id of a synthetic chain message already in the list, or undefined. As pi-condense checks
 * it: the text of the first block of an array content (a string content is never one).
 */
export function syntheticBlockId(message: ContextMessage): string | undefined {
	if (message.role !== 'user' || typeof message.content === 'string') {
		return undefined;
	}
	const first = message.content[0];
	return first?.type === 'text' ? SYNTHETIC_PREFIX.exec(first.text)?.[1] : undefined;
}

/** Block ids of the synthetic chain messages already in the list (re-inserting one is skipped). */
export function* existingBlockIdsSteps(messages: readonly AgentMessage[]): Steps<Set<string>> {
	const ids = new Set<string>();
	for (let i = 0; i < messages.length; i++) {
		if (paced(i)) {
			yield;
		}
		const blockId = syntheticBlockId(messages[i] as AgentMessage);
		if (blockId !== undefined) {
			ids.add(blockId);
		}
	}
	return ids;
}

/** `{bN}` lookup: block N's body, when it is not empty (an empty body leaves the placeholder). */
export function blockBodyLookup(state: CondenseState): BlockBodyLookup {
	return (blockId) => state.blockBodies.get(blockId) || undefined;
}

/**
 * The synthetic user message that stands in for a compressed chain. Pure.
 *
 * Text, byte-exact with pi-condense: `<compressed-chain id="bN" tools="t1,t2">`, a newline, the
 * body (with `{bN}` placeholders resolved), each relocated protected output as a blank line plus
 * `<protected-output tool="name">\n…\n</protected-output>`, a newline and `</compressed-chain>`. Its
 * timestamp is the chain's `compressedAt`.
 */
import type { AgentMessage, UserMessage } from '../../session/types';
import type { ChainCompressionEntry } from '../types';
import { substituteBlockRefs, type BlockBodyLookup } from './blockRefs';

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

/** Block id of a synthetic chain message already in the list, or undefined. */
export function syntheticBlockId(message: AgentMessage): string | undefined {
	if (message.role !== 'user') {
		return undefined;
	}
	const first = typeof message.content === 'string' ? message.content : message.content[0];
	const text = typeof first === 'string' ? first : first?.type === 'text' ? first.text : undefined;
	return text === undefined ? undefined : SYNTHETIC_PREFIX.exec(text)?.[1];
}

/**
 * Resolves compressed-chain entries to positions in the message list. Pure.
 *
 * Fail-closed, like pi-condense after its bug #8: a chain applies only when exactly one user
 * message has the start timestamp, exactly one assistant has the final timestamp, and the start
 * comes first. Otherwise the chain drops nothing. Ranges nested in another, or sharing a start,
 * are skipped so each slot gets one synthetic message.
 */
import type { AgentMessage } from '../../session/types';
import type { ChainInfo } from '../state/condenseState';
import type { RenderReporter } from './renderDiagnostics';

export interface ChainRange {
	readonly chain: ChainInfo;
	readonly startIndex: number;
	readonly endIndex: number;
}

export function resolveChainRange(chain: ChainInfo, messages: readonly AgentMessage[]): ChainRange | undefined {
	const { startUserTimestamp, finalAssistantTimestamp } = chain.entry;
	if (finalAssistantTimestamp === null) {
		return undefined;
	}
	let startIndex = -1;
	let endIndex = -1;
	let starts = 0;
	let ends = 0;
	messages.forEach((message, i) => {
		if (message.role === 'user' && message.timestamp === startUserTimestamp) {
			starts++;
			startIndex = i;
		} else if (message.role === 'assistant' && message.timestamp === finalAssistantTimestamp) {
			ends++;
			endIndex = i;
		}
	});
	if (starts !== 1 || ends !== 1 || startIndex >= endIndex) {
		return undefined;
	}
	return { chain, startIndex, endIndex };
}

/** The ranges that apply, in chain order; reports the ones that do not. */
export function acceptedRanges(chains: readonly ChainInfo[], messages: readonly AgentMessage[], report: RenderReporter): ChainRange[] {
	const resolved: ChainRange[] = [];
	for (const chain of chains) {
		const range = resolveChainRange(chain, messages);
		if (range) {
			resolved.push(range);
		} else {
			const { blockId, startUserTimestamp, finalAssistantTimestamp } = chain.entry;
			report({
				kind: 'unresolved-range',
				message: `chain ${blockId}: no unique range from user@${startUserTimestamp} to assistant@${String(finalAssistantTimestamp)}; left raw`,
			});
		}
	}
	const accepted: ChainRange[] = [];
	const claimedStarts = new Set<number>();
	for (const range of resolved) {
		const outer = resolved.find((other) => other !== range && range.startIndex > other.startIndex && range.startIndex < other.endIndex);
		if (outer || claimedStarts.has(range.startIndex)) {
			const why = outer ? `nests inside ${outer.chain.entry.blockId}` : 'shares its start with another chain';
			report({ kind: 'overlapping-range', message: `chain ${range.chain.entry.blockId} ${why}; skipped` });
			continue;
		}
		claimedStarts.add(range.startIndex);
		accepted.push(range);
	}
	return accepted;
}

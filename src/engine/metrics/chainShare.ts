/**
 * The largest-chain share of pi-condense's context metrics (2.7.0+). Pure.
 *
 * A chain is located by timestamps, as the release does: it starts at the first user message with
 * its start timestamp; a closed chain ends at the first assistant from there with its final
 * timestamp, an interrupted one just before the next user message (or at the end). The share is
 * the larger of the biggest chain and the open segment, over the whole branch, in percent.
 */
import type { DetectedChain } from '../flush/chains/detectChains';
import type { AgentMessage } from '../session/types';
import { messageChars } from './metricsBranch';

export function largestChainSharePct(messages: readonly AgentMessage[], openStart: number, chains: readonly DetectedChain[]): number {
	const sizes = messages.map(messageChars);
	const prefix = [0];
	for (const size of sizes) {
		prefix.push((prefix.at(-1) as number) + size);
	}
	const charsBetween = (start: number, end: number): number => (prefix[end + 1] as number) - (prefix[start] as number);
	const total = prefix.at(-1) as number;
	let largest = 0;
	for (const chain of chains) {
		const span = chainSpan(messages, chain);
		if (span) {
			largest = Math.max(largest, charsBetween(span.start, span.end));
		}
	}
	const openSegment = openStart < messages.length ? charsBetween(openStart, messages.length - 1) : 0;
	return total === 0 ? 0 : Math.round((100 * Math.max(largest, openSegment)) / total);
}

function chainSpan(messages: readonly AgentMessage[], chain: DetectedChain): { readonly start: number; readonly end: number } | undefined {
	const start = messages.findIndex((message) => message.role === 'user' && message.timestamp === chain.startUserTimestamp);
	if (start === -1) {
		return undefined;
	}
	let end: number;
	if (chain.finalAssistantTimestamp !== null) {
		end = messages.findIndex((message, i) => i >= start && message.role === 'assistant' && message.timestamp === chain.finalAssistantTimestamp);
		if (end === -1) {
			return undefined;
		}
	} else {
		const nextUser = messages.findIndex((message, i) => i > start && message.role === 'user');
		end = nextUser === -1 ? messages.length - 1 : nextUser - 1;
	}
	return end < start ? undefined : { start, end };
}

/**
 * How big a context is, measured as pi-condense measures it (`JSON.stringify(messages).length`),
 * and how that size splits into categories for the preview's token bars. Pure.
 */
import type { AgentMessage } from '../../session/types';
import { isSummaryMessage } from '../occurrence';
import { syntheticBlockId } from '../phases/syntheticChain';
import { CUSTOM_TYPE_SUMMARY } from '../types';
import type { LiveReclaim } from './statusText';

/**
 * Before/after sizes of one render, or undefined when the render changed nothing (same array):
 * the unchanged path never serializes the messages.
 */
export function measureReclaim(before: readonly AgentMessage[], after: readonly AgentMessage[]): LiveReclaim | undefined {
	if (before === after) {
		return undefined;
	}
	return { beforeChars: JSON.stringify(before).length, afterChars: JSON.stringify(after).length };
}

export type SizeCategory =
	| 'user' | 'assistantText' | 'thinking' | 'toolCalls' | 'toolResults' | 'summaries' | 'compressedChains' | 'other';

/** Characters per category; `total` equals `JSON.stringify(messages).length`. */
export type ContextBreakdown = Readonly<Record<SizeCategory, number>> & { readonly total: number };

/**
 * Splits the serialized size by category. Assistant messages are split by block; their envelope
 * (model, usage, …), other roles and the array's own brackets and commas count as `other`.
 */
export function contextBreakdown(messages: readonly AgentMessage[]): ContextBreakdown {
	const sizes: Record<SizeCategory, number> = {
		user: 0, assistantText: 0, thinking: 0, toolCalls: 0, toolResults: 0, summaries: 0, compressedChains: 0, other: 0,
	};
	let total = messages.length === 0 ? 2 : messages.length + 1;
	sizes.other = total;
	for (const message of messages) {
		const chars = JSON.stringify(message).length;
		total += chars;
		if (message.role === 'assistant') {
			let blocks = 0;
			for (const block of message.content) {
				const blockChars = JSON.stringify(block).length;
				blocks += blockChars;
				sizes[block.type === 'text' ? 'assistantText' : block.type === 'thinking' ? 'thinking' : 'toolCalls'] += blockChars;
			}
			sizes.other += chars - blocks;
		} else {
			sizes[categoryOf(message)] += chars;
		}
	}
	return { ...sizes, total };
}

function categoryOf(message: AgentMessage): SizeCategory {
	switch (message.role) {
		case 'user': return syntheticBlockId(message) === undefined ? 'user' : 'compressedChains';
		case 'toolResult': return 'toolResults';
		case 'custom': return isSummaryMessage(message, CUSTOM_TYPE_SUMMARY) ? 'summaries' : 'other';
		default: return 'other';
	}
}

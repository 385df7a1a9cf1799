/**
 * How big a context is, measured as pi-condense measures it (`JSON.stringify(messages).length`),
 * and how that size splits into categories for the preview's token bars. Pure.
 */
import type { AgentMessage, AssistantContent } from '../../session/types';
import { isSummaryMessage } from '../occurrence';
import { syntheticBlockId } from '../phases/syntheticChain';
import { CUSTOM_TYPE_SUMMARY } from '../types';
import { stringifiedLength } from './jsonLength';
import type { LiveReclaim } from './statusText';
import { Pacer, runSteps, type Steps } from '../../steps';

/** Serialized length of a message or an assistant block; callers that measure often pass a cached one. */
export type SizeOf = (value: AgentMessage | AssistantContent) => number;

const serializedSize: SizeOf = stringifiedLength;

/** `JSON.stringify(messages).length`, from the messages' sizes (`[`, items joined by `,`, `]`). */
export function serializedLength(messages: readonly AgentMessage[], sizeOf: SizeOf = serializedSize): number {
	return runSteps(serializedLengthSteps(messages, sizeOf));
}

export function* serializedLengthSteps(messages: readonly AgentMessage[], sizeOf: SizeOf = serializedSize): Steps<number> {
	let total = messages.length === 0 ? 2 : messages.length + 1;
	const pacer = new Pacer();
	for (const message of messages) {
		const size = sizeOf(message);
		total += size;
		if (pacer.due(size)) {
			yield;
		}
	}
	return total;
}

/**
 * Before/after sizes of one render, or undefined when the render changed nothing (same array):
 * the unchanged path never serializes the messages.
 */
export function measureReclaim(before: readonly AgentMessage[], after: readonly AgentMessage[], sizeOf: SizeOf = serializedSize): LiveReclaim | undefined {
	return runSteps(measureReclaimSteps(before, after, sizeOf));
}

export function* measureReclaimSteps(before: readonly AgentMessage[], after: readonly AgentMessage[], sizeOf: SizeOf = serializedSize): Steps<LiveReclaim | undefined> {
	if (before === after) {
		return undefined;
	}
	return { beforeChars: yield* serializedLengthSteps(before, sizeOf), afterChars: yield* serializedLengthSteps(after, sizeOf) };
}

export type SizeCategory =
	| 'user' | 'assistantText' | 'thinking' | 'toolCalls' | 'toolResults' | 'summaries' | 'compressedChains' | 'other';

/** Characters per category; `total` equals `JSON.stringify(messages).length`. */
export type ContextBreakdown = Readonly<Record<SizeCategory, number>> & { readonly total: number };

/**
 * Splits the serialized size by category. Assistant messages are split by block; their envelope
 * (model, usage, …), other roles and the array's own brackets and commas count as `other`.
 */
export function contextBreakdown(messages: readonly AgentMessage[], sizeOf: SizeOf = serializedSize): ContextBreakdown {
	return runSteps(contextBreakdownSteps(messages, sizeOf));
}

export function* contextBreakdownSteps(messages: readonly AgentMessage[], sizeOf: SizeOf = serializedSize): Steps<ContextBreakdown> {
	const sizes: Record<SizeCategory, number> = {
		user: 0, assistantText: 0, thinking: 0, toolCalls: 0, toolResults: 0, summaries: 0, compressedChains: 0, other: 0,
	};
	let total = messages.length === 0 ? 2 : messages.length + 1;
	sizes.other = total;
	const pacer = new Pacer();
	for (const message of messages) {
		const chars = sizeOf(message);
		if (pacer.due(chars)) {
			yield;
		}
		total += chars;
		if (message.role === 'assistant') {
			let blocks = 0;
			for (const block of message.content) {
				const blockChars = sizeOf(block);
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

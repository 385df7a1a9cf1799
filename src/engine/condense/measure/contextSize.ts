/**
 * How big a context is, measured as pi-condense measures it (`JSON.stringify(messages).length`),
 * and how that size splits into categories for the preview's token bars. Pure. Pi 1.x's system
 * messages have a category of their own; pi-condense never sees them, so its own figures (the status
 * line) are taken over the conversation alone (`conversationChars`).
 */
import type { ContextMessage } from '../../session/types';
import { isSummaryMessage } from '../occurrence';
import { syntheticBlockId } from '../phases/syntheticChain';
import { CUSTOM_TYPE_SUMMARY } from '../types';
import { stringifiedLength } from './jsonLength';
import type { LiveReclaim } from './statusText';
import { Pacer, type Steps } from '../../steps';

/** `JSON.stringify(messages).length`, from the messages' sizes (`[`, items joined by `,`, `]`). */
export function* serializedLengthSteps(messages: readonly ContextMessage[]): Steps<number> {
	let total = messages.length === 0 ? 2 : messages.length + 1;
	const pacer = new Pacer();
	for (const message of messages) {
		const size = stringifiedLength(message);
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
export function* measureReclaimSteps(before: readonly ContextMessage[], after: readonly ContextMessage[]): Steps<LiveReclaim | undefined> {
	if (before === after) {
		return undefined;
	}
	return { beforeChars: yield* serializedLengthSteps(before), afterChars: yield* serializedLengthSteps(after) };
}

export type SizeCategory =
	| 'system' | 'user' | 'assistantText' | 'thinking' | 'toolCalls' | 'toolResults' | 'summaries' | 'compressedChains' | 'other';

/** Characters per category; `total` equals `JSON.stringify(messages).length`. */
export type ContextBreakdown = Readonly<Record<SizeCategory, number>> & { readonly total: number };

/**
 * Splits the serialized size by category. Assistant messages are split by block; their envelope
 * (model, usage, …), other roles and the array's own brackets and commas count as `other`.
 */
export function* contextBreakdownSteps(messages: readonly ContextMessage[]): Steps<ContextBreakdown> {
	return (yield* measuredContextSteps(messages)).breakdown;
}

/**
 * A context's breakdown, with each message's serialized size and its assistant blocks' sizes by
 * position: the preview measures Pi's context once and looks its messages up by index. Typed
 * arrays keep them off the collected heap, one number each.
 */
export interface MeasuredContext {
	readonly breakdown: ContextBreakdown;
	/** `sizes[i]`: `JSON.stringify(messages[i]).length`. */
	readonly sizes: Uint32Array;
	/** An assistant message's text, thinking and tool-call blocks, serialized (0 for other roles). */
	readonly assistantText: Uint32Array;
	readonly thinking: Uint32Array;
	readonly toolCalls: Uint32Array;
}

type MeasuredColumns = Omit<MeasuredContext, 'breakdown'>;

/** Where a message was already measured: `table`'s index of the same object, or -1. */
export interface MeasuredBefore {
	readonly table: MeasuredContext;
	readonly indexOf: (message: ContextMessage, index: number) => number;
}

export function* measuredContextSteps(messages: readonly ContextMessage[], measuredBefore?: MeasuredBefore): Steps<MeasuredContext> {
	const n = messages.length;
	const measured: MeasuredColumns = {
		sizes: new Uint32Array(n),
		assistantText: new Uint32Array(n),
		thinking: new Uint32Array(n),
		toolCalls: new Uint32Array(n),
	};
	const sizes: Record<SizeCategory, number> = {
		system: 0, user: 0, assistantText: 0, thinking: 0, toolCalls: 0, toolResults: 0, summaries: 0, compressedChains: 0, other: n === 0 ? 2 : n + 1,
	};
	let total = sizes.other;
	const pacer = new Pacer();
	for (let i = 0; i < n; i++) {
		const message = messages[i] as ContextMessage;
		const at = measuredBefore ? measuredBefore.indexOf(message, i) : -1;
		const chars = at >= 0 ? copyMeasures(measuredBefore?.table, at, measured, i) : measureMessage(message, measured, i);
		if (pacer.due(at >= 0 ? 1 : chars)) {
			yield;
		}
		total += chars;
		if (message.role === 'assistant') {
			const text = measured.assistantText[i] as number;
			const thinking = measured.thinking[i] as number;
			const toolCalls = measured.toolCalls[i] as number;
			sizes.assistantText += text;
			sizes.thinking += thinking;
			sizes.toolCalls += toolCalls;
			sizes.other += chars - text - thinking - toolCalls;
		} else {
			sizes[categoryOf(message)] += chars;
		}
	}
	return { ...measured, breakdown: { ...sizes, total } };
}

function measureMessage(message: ContextMessage, into: MeasuredColumns, index: number): number {
	const chars = stringifiedLength(message);
	into.sizes[index] = chars;
	if (message.role === 'assistant') {
		for (const block of message.content) {
			const blockChars = stringifiedLength(block);
			const column = block.type === 'text' ? into.assistantText : block.type === 'thinking' ? into.thinking : into.toolCalls;
			column[index] = (column[index] as number) + blockChars;
		}
	}
	return chars;
}

function copyMeasures(from: MeasuredColumns | undefined, at: number, into: MeasuredColumns, index: number): number {
	const chars = from?.sizes[at] ?? 0;
	into.sizes[index] = chars;
	into.assistantText[index] = from?.assistantText[at] ?? 0;
	into.thinking[index] = from?.thinking[at] ?? 0;
	into.toolCalls[index] = from?.toolCalls[at] ?? 0;
	return chars;
}

/**
 * `JSON.stringify` length of the conversation alone (the system messages left out), from a measured
 * context: what pi-condense measures, since its `context` handler never sees them.
 */
export function conversationChars(messages: readonly ContextMessage[], measured: MeasuredContext): number {
	let systemChars = 0;
	let system = 0;
	for (let i = 0; i < messages.length; i++) {
		if ((messages[i] as ContextMessage).role === 'system') {
			systemChars += measured.sizes[i] as number;
			system++;
		}
	}
	if (system === 0) {
		return measured.breakdown.total;
	}
	const left = messages.length - system;
	return left === 0 ? 2 : measured.breakdown.total - systemChars - system;
}

function categoryOf(message: ContextMessage): SizeCategory {
	switch (message.role) {
		case 'system': return 'system';
		case 'user': return syntheticBlockId(message) === undefined ? 'user' : 'compressedChains';
		case 'toolResult': return 'toolResults';
		case 'custom': return isSummaryMessage(message, CUSTOM_TYPE_SUMMARY) ? 'summaries' : 'other';
		default: return 'other';
	}
}

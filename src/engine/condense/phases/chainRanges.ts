/**
 * Resolves compressed-chain entries to positions in the message list, as pi-condense 2.6.0+ does
 * (its fix for bug #8). Pure.
 *
 * Fail-closed: a chain applies only when exactly one user message has the start timestamp, exactly
 * one assistant has the final timestamp, and the start comes first. Otherwise the chain drops
 * nothing. Ranges nested in another, or sharing a start, are skipped so each slot gets one
 * synthetic message.
 */
import type { AgentMessage, ContextMessage } from '../../session/types';
import { firstAtOrAbove } from '../../sortedSearch';
import type { ChainInfo } from '../state/condenseState';
import type { ReleaseDiagnostic } from './renderReport';
import { paced, type Steps } from '../../steps';

export interface ChainRange {
	readonly chain: ChainInfo;
	readonly startIndex: number;
	readonly endIndex: number;
}

/** How many user and assistant messages carry each timestamp, and where the last one is. */
export interface TimestampSlots {
	readonly users: Map<number, { count: number; index: number }>;
	readonly assistants: Map<number, { count: number; index: number }>;
}

/** One pass over the messages, so resolving many chains costs one lookup each. */
export function* timestampSlotsSteps(messages: readonly ContextMessage[]): Steps<TimestampSlots> {
	const slots: TimestampSlots = { users: new Map(), assistants: new Map() };
	for (let index = 0; index < messages.length; index++) {
		if (paced(index)) {
			yield;
		}
		const message = messages[index] as ContextMessage;
		const map = message.role === 'user' ? slots.users : message.role === 'assistant' ? slots.assistants : undefined;
		if (map) {
			const slot = map.get(message.timestamp);
			if (slot) {
				slot.count++;
				slot.index = index;
			} else {
				map.set(message.timestamp, { count: 1, index });
			}
		}
	}
	return slots;
}

function resolveChainRange(chain: ChainInfo, slots: TimestampSlots): ChainRange | undefined {
	const range = rangeIndexes(slots, chain.entry.startUserTimestamp, chain.entry.finalAssistantTimestamp);
	return range && { chain, ...range };
}

/**
 * Where a chain's range lies: exactly one user message at its start timestamp and one assistant
 * at its final one, in that order; else undefined (the chain stays raw).
 */
export function rangeIndexes(slots: TimestampSlots, startUserTimestamp: number, finalAssistantTimestamp: number | null): { readonly startIndex: number; readonly endIndex: number } | undefined {
	if (finalAssistantTimestamp === null) {
		return undefined;
	}
	const start = slots.users.get(startUserTimestamp);
	const end = slots.assistants.get(finalAssistantTimestamp);
	if (start?.count !== 1 || end?.count !== 1 || start.index >= end.index) {
		return undefined;
	}
	return { startIndex: start.index, endIndex: end.index };
}

/**
 * The ranges that apply, in chain order, as 2.6.0+ accepts them: a chain that does not resolve is
 * skipped (`unresolved-range`, keyed by its block id), and so is a resolved chain whose start lies
 * strictly inside another resolved range or on a start already claimed (`unresolved-range`, keyed
 * `overlap:<block id>`).
 */
export function* acceptedRangesSteps(chains: readonly ChainInfo[], messages: readonly AgentMessage[], report: DiagnosticSink | undefined): Steps<ChainRange[]> {
	const resolved: ChainRange[] = [];
	const slots = yield* timestampSlotsSteps(messages);
	for (const chain of chains) {
		const range = resolveChainRange(chain, slots);
		if (range) {
			resolved.push(range);
		} else {
			const { blockId, startUserTimestamp, finalAssistantTimestamp } = chain.entry;
			report?.(withLine({ kind: 'unresolved-range', dedupKey: blockId, detail: `blockId=${blockId} start=${startUserTimestamp} final=${String(finalAssistantTimestamp)}` }, chain.line));
		}
	}
	const accepted: ChainRange[] = [];
	const claimedStarts = new Set<number>();
	yield;
	const mayNest = nestingCheck(resolved);
	yield;
	for (const range of resolved) {
		// The first enclosing range in chain order names the diagnostic; only searched for when one exists.
		const outer = mayNest(range.startIndex) ? resolved.find((other) => other !== range && range.startIndex > other.startIndex && range.startIndex < other.endIndex) : undefined;
		if (outer || claimedStarts.has(range.startIndex)) {
			const blockId = range.chain.entry.blockId;
			const detail = outer
				? `blockId=${blockId} skipped: range nests inside blockId=${outer.chain.entry.blockId}`
				: `blockId=${blockId} skipped: range duplicates startIndex=${range.startIndex} already claimed`;
			report?.(withLine({ kind: 'unresolved-range', dedupKey: `overlap:${blockId}`, detail }, range.chain.line));
			continue;
		}
		claimedStarts.add(range.startIndex);
		accepted.push(range);
	}
	return accepted;
}

/**
 * Whether some range starts strictly before `startIndex` and ends strictly after it: the largest end
 * among the ranges starting earlier tells, so thousands of chains need no pairwise comparison.
 */
function nestingCheck(ranges: readonly ChainRange[]): (startIndex: number) => boolean {
	const byStart = ranges.map((range) => [range.startIndex, range.endIndex] as const).sort((a, b) => a[0] - b[0]);
	const starts: number[] = [];
	const furthestEndBefore: number[] = [];
	let furthest = -1;
	for (let k = 0; k < byStart.length;) {
		const start = (byStart[k] as readonly [number, number])[0];
		starts.push(start);
		furthestEndBefore.push(furthest);
		for (; k < byStart.length && (byStart[k] as readonly [number, number])[0] === start; k++) {
			furthest = Math.max(furthest, (byStart[k] as readonly [number, number])[1]);
		}
	}
	return (startIndex) => {
		const low = firstAtOrAbove(starts, startIndex);
		// starts[low] is the first start ≥ startIndex: furthestEndBefore[low] covers every earlier start.
		const before = low < starts.length ? furthestEndBefore[low] as number : furthest;
		return before > startIndex;
	};
}

export type DiagnosticSink = (diagnostic: ReleaseDiagnostic) => void;

function withLine(diagnostic: ReleaseDiagnostic & { kind: 'unresolved-range' | 'range-id-mismatch' }, line: number | undefined): ReleaseDiagnostic {
	return line === undefined ? diagnostic : { ...diagnostic, line };
}

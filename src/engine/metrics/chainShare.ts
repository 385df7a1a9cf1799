/**
 * The largest-chain share of pi-condense's context metrics (2.7.0+). Pure.
 *
 * A chain is located by timestamps, as the release does: it starts at the first user message with
 * its start timestamp; a closed chain ends at the first assistant from there with its final
 * timestamp, an interrupted one just before the next user message (or at the end). The share is
 * the larger of the biggest chain and the open segment, over the whole branch, in percent.
 */
import type { DetectedChain } from '../chains/detectChains';
import type { ContextMessage } from '../session/types';
import { firstAtOrAbove } from '../sortedSearch';
import { messageChars } from './metricsBranch';
import { Pacer, type Steps } from '../steps';

export function* largestChainSharePctSteps(messages: readonly ContextMessage[], openStart: number, chains: readonly DetectedChain[]): Steps<number> {
	const sizes: number[] = [];
	const pacer = new Pacer();
	for (const message of messages) {
		const size = messageChars(message);
		sizes.push(size);
		if (pacer.due(size)) {
			yield;
		}
	}
	const prefix = [0];
	for (const size of sizes) {
		prefix.push((prefix.at(-1) as number) + size);
	}
	const charsBetween = (start: number, end: number): number => (prefix[end + 1] as number) - (prefix[start] as number);
	const total = prefix.at(-1) as number;
	const positions = new RolePositions(messages);
	let largest = 0;
	for (const chain of chains) {
		const span = chainSpan(messages.length, positions, chain);
		if (span) {
			largest = Math.max(largest, charsBetween(span.start, span.end));
		}
	}
	const openSegment = openStart < messages.length ? charsBetween(openStart, messages.length - 1) : 0;
	return total === 0 ? 0 : Math.round((100 * Math.max(largest, openSegment)) / total);
}

/**
 * Where user and assistant messages sit, by timestamp: each chain is located by lookups instead of
 * scans from the start (thousands of chains made the scans quadratic).
 */
class RolePositions {
	private readonly users: number[] = [];
	private readonly firstUserAt = new Map<number, number>();
	private readonly assistantsAt = new Map<number, number[]>();

	constructor(messages: readonly ContextMessage[]) {
		messages.forEach((message, i) => {
			if (message.role === 'user') {
				this.users.push(i);
				if (!this.firstUserAt.has(message.timestamp)) {
					this.firstUserAt.set(message.timestamp, i);
				}
			} else if (message.role === 'assistant') {
				const list = this.assistantsAt.get(message.timestamp);
				if (list) {
					list.push(i);
				} else {
					this.assistantsAt.set(message.timestamp, [i]);
				}
			}
		});
	}

	firstUser(timestamp: number): number {
		return this.firstUserAt.get(timestamp) ?? -1;
	}

	/** The first assistant at or after `from` with this timestamp; -1 when there is none. */
	assistantFrom(from: number, timestamp: number): number {
		const list = this.assistantsAt.get(timestamp) ?? [];
		return list[firstAtOrAbove(list, from)] ?? -1;
	}

	/** The first user message after `index`; -1 when there is none. */
	userAfter(index: number): number {
		return this.users[firstAtOrAbove(this.users, index + 1)] ?? -1;
	}
}

function chainSpan(count: number, positions: RolePositions, chain: DetectedChain): { readonly start: number; readonly end: number } | undefined {
	const start = positions.firstUser(chain.startUserTimestamp);
	if (start === -1) {
		return undefined;
	}
	let end: number;
	if (chain.finalAssistantTimestamp !== null) {
		end = positions.assistantFrom(start, chain.finalAssistantTimestamp);
		if (end === -1) {
			return undefined;
		}
	} else {
		const nextUser = positions.userAfter(start);
		end = nextUser === -1 ? count - 1 : nextUser - 1;
	}
	return end < start ? undefined : { start, end };
}

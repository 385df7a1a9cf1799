/**
 * Raw message positions by role, timestamp and tool-call id, for the alignment's look-ups, kept in
 * typed arrays: a hash table whose buckets chain positions in ascending order. A Map from a key
 * string to a list per key made three objects per message (22 MB on the pruned 100 MB session) that
 * lived through the whole preview computation, and the collector copied them again at every pause.
 * Pure.
 */
import type { ContextMessage } from '../session/types';
import { paced, type Steps } from '../steps';

const NONE = -1;

export class MessagePositions {
	/** Per bucket: the next position to look at (moves forward as the callers' `from` does). */
	private readonly resume: Int32Array;

	private constructor(private readonly shift: number, heads: Int32Array, private readonly next: Int32Array) {
		this.resume = heads.slice();
	}

	static *buildSteps(messages: readonly ContextMessage[]): Steps<MessagePositions> {
		const bits = Math.max(4, Math.ceil(Math.log2(messages.length * 2 + 1)));
		const heads = new Int32Array(2 ** bits).fill(NONE);
		const next = new Int32Array(messages.length).fill(NONE);
		const shift = 32 - bits;
		// From the end, so that each bucket's chain runs in ascending position.
		for (let i = messages.length - 1; i >= 0; i--) {
			if (paced(i)) {
				yield;
			}
			const bucket = bucketOf(messages[i] as ContextMessage, shift);
			next[i] = heads[bucket] as number;
			heads[bucket] = i;
		}
		return new MessagePositions(shift, heads, next);
	}

	/**
	 * The positions at or after `from` that may hold a message like `message` (same bucket), in
	 * ascending order, until `accept` takes one; -1 when none does. `from` must never decrease from
	 * one call to the next (the alignment's cursor only moves forward): positions passed are skipped
	 * for good.
	 */
	find(message: ContextMessage, from: number, accept: (position: number) => boolean): number {
		const bucket = bucketOf(message, this.shift);
		let position = this.resume[bucket] as number;
		while (position !== NONE && position < from) {
			position = this.next[position] as number;
		}
		this.resume[bucket] = position;
		for (; position !== NONE; position = this.next[position] as number) {
			if (accept(position)) {
				return position;
			}
		}
		return NONE;
	}
}

/** A multiplicative hash of the role, the timestamp and the tool-call id (what pairs two messages). */
function bucketOf(message: ContextMessage, shift: number): number {
	const timestamp = Number(message.timestamp);
	let hash = Math.imul((timestamp >>> 0) ^ Math.imul(Math.floor(timestamp / 4294967296) >>> 0, 0x85ebca6b), 0x9e3779b1);
	hash = Math.imul(hash ^ roleCode(message.role), 0xc2b2ae35);
	if (message.role === 'toolResult') {
		const id = message.toolCallId;
		for (let i = 0; i < id.length; i++) {
			hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
		}
	}
	return Math.imul(hash ^ (hash >>> 16), 0x9e3779b1) >>> shift;
}

function roleCode(role: string): number {
	return role.length * 31 + (role.charCodeAt(0) || 0);
}

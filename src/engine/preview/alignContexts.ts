/**
 * Pairs the messages of the rendered context with Pi's raw context. Pure.
 *
 * The transform keeps order: it replaces messages in place (stubs, purged arguments, stripped
 * thinking: same role and timestamp), drops some (compressed chains, orphans) and inserts
 * synthetic `<compressed-chain>` messages. So one forward pass pairs each rendered message with
 * the first raw message at or after the cursor that is the same object, or has the same role,
 * timestamp and tool-call id.
 */
import { syntheticBlockId } from '../condense/phases/syntheticChain';
import type { ContextMessage } from '../session/types';
import { MessagePositions } from './messagePositions';
import { paced, type Steps } from '../steps';

export interface Alignment {
	/** For each rendered message: the index of its raw message, or -1 for a synthetic one. */
	readonly rawIndexOf: readonly number[];
	/** For each raw message: the index of its rendered message, or -1 when it is not sent. */
	readonly renderedIndexOf: readonly number[];
}

export function* alignContextsSteps(raw: readonly ContextMessage[], rendered: readonly ContextMessage[]): Steps<Alignment> {
	const rawIndexOf: number[] = [];
	const renderedIndexOf: number[] = new Array<number>(raw.length).fill(-1);
	if (raw === rendered) {
		for (let i = 0; i < raw.length; i++) {
			rawIndexOf.push(i);
			renderedIndexOf[i] = i;
		}
		return { rawIndexOf, renderedIndexOf };
	}
	let cursor = 0;
	let index: RawIndex | undefined;
	for (let i = 0; i < rendered.length; i++) {
		if (paced(i)) {
			yield;
		}
		const message = rendered[i] as ContextMessage;
		let found = raw[cursor] === message ? cursor : -1;
		if (found < 0) {
			index ??= yield* rawIndexSteps(raw);
			found = index.findFrom(cursor, message);
		}
		if (found < 0) {
			rawIndexOf.push(-1);
			continue;
		}
		rawIndexOf.push(found);
		renderedIndexOf[found] = i;
		cursor = found + 1;
	}
	return { rawIndexOf, renderedIndexOf };
}

/**
 * Raw positions by role, timestamp and tool-call id: a message missing from the raw context (a
 * synthetic chain, a dropped neighbour) is looked up instead of scanned for to the end, which made
 * the pass quadratic on sessions with thousands of chains.
 */
class RawIndex {
	constructor(private readonly raw: readonly ContextMessage[], private readonly positions: MessagePositions) {}

	/** The first raw position at or after `from` holding this message or one like it (a synthetic one: only itself). */
	findFrom(from: number, message: ContextMessage): number {
		// A synthetic chain message has no raw counterpart (unless Pi's context already holds it).
		const synthetic = syntheticBlockId(message) !== undefined;
		return this.positions.find(message, from, (i) => {
			const candidate = this.raw[i] as ContextMessage;
			return candidate === message || (!synthetic && sameMessage(candidate, message));
		});
	}
}

function* rawIndexSteps(raw: readonly ContextMessage[]): Steps<RawIndex> {
	return new RawIndex(raw, yield* MessagePositions.buildSteps(raw));
}

function sameMessage(a: ContextMessage, b: ContextMessage): boolean {
	if (a.role !== b.role || a.timestamp !== b.timestamp) {
		return false;
	}
	return a.role !== 'toolResult' || (b.role === 'toolResult' && a.toolCallId === b.toolCallId);
}

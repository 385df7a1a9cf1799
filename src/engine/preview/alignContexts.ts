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
import type { AgentMessage } from '../session/types';

export interface Alignment {
	/** For each rendered message: the index of its raw message, or -1 for a synthetic one. */
	readonly rawIndexOf: readonly number[];
	/** For each raw message: the index of its rendered message, or -1 when it is not sent. */
	readonly renderedIndexOf: readonly number[];
}

export function alignContexts(raw: readonly AgentMessage[], rendered: readonly AgentMessage[]): Alignment {
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
	for (let i = 0; i < rendered.length; i++) {
		const message = rendered[i] as AgentMessage;
		const found = findFrom(raw, cursor, message);
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

function findFrom(raw: readonly AgentMessage[], from: number, message: AgentMessage): number {
	if (raw[from] === message) {
		return from;
	}
	// A synthetic chain message has no raw counterpart (unless Pi's context already holds it).
	const synthetic = syntheticBlockId(message) !== undefined;
	for (let i = from; i < raw.length; i++) {
		const candidate = raw[i] as AgentMessage;
		if (candidate === message || (!synthetic && sameMessage(candidate, message))) {
			return i;
		}
	}
	return -1;
}

function sameMessage(a: AgentMessage, b: AgentMessage): boolean {
	if (a.role !== b.role || a.timestamp !== b.timestamp) {
		return false;
	}
	return a.role !== 'toolResult' || (b.role === 'toolResult' && a.toolCallId === b.toolCallId);
}

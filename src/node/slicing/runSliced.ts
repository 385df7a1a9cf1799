/**
 * Runs the engine's steps (see `src/engine/steps.ts`) on this thread in slices of a few
 * milliseconds, letting everything else the thread serves run between two slices: the extension
 * host is shared with every other extension, and a 100 MB session's preview is seconds of work.
 * An aborted signal stops the steps at the next pause (a newer request superseded this one).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Steps } from '../../engine/steps';

/**
 * Work done in one go before the thread is let go: well under the 50 ms any block may take. A
 * collection lands inside whichever slice runs, so a block is a slice plus a pause; 4 ms slices
 * also let V8's scheduled scavenges run between slices sooner. On the pruned 100 MB session the
 * preview rows' longest block went from 41-59 ms (8 ms slices) to 30-51 ms, the what-if's from
 * 24-36 to 15-29, at the same total time; 2 ms slices gained nothing more.
 */
export const SLICE_MS = 4;

export class SupersededError extends Error {
	constructor() {
		super('superseded by a newer request');
		this.name = 'SupersededError';
	}
}

export function isSuperseded(error: unknown): boolean {
	return error instanceof SupersededError;
}

/**
 * When this thread's current slice began, and whether the event loop has turned since: a chain of
 * calls that each finish within their budget (promises resolving at once) never lets the loop turn,
 * so each call also checks the time spent since the loop last turned.
 */
let sliceBegan = 0;
let loopTurnPending = false;

function startOrContinueSlice(): number {
	if (!loopTurnPending) {
		sliceBegan = performance.now();
		loopTurnPending = true;
		setImmediate(() => {
			loopTurnPending = false;
		}).unref();
	}
	return sliceBegan;
}

export async function runSliced<T>(steps: Steps<T>, signal?: AbortSignal, sliceMs = SLICE_MS): Promise<T> {
	try {
		for (;;) {
			if (signal?.aborted) {
				throw new SupersededError();
			}
			if (performance.now() - startOrContinueSlice() >= sliceMs) {
				await nextTurn();
				continue;
			}
			const until = startOrContinueSlice() + sliceMs;
			for (;;) {
				const next = steps.next();
				if (next.done) {
					return next.value;
				}
				if (performance.now() >= until) {
					break;
				}
			}
			await nextTurn();
		}
	} finally {
		steps.return(undefined as never);
	}
}

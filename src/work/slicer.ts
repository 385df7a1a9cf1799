/**
 * The slicer: runs the engine's steps (see `src/engine/steps.ts`) on this thread in slices of a few
 * milliseconds, letting everything else the thread serves run between two slices: the extension
 * host is shared with every other extension, a 100 MB session's preview is seconds of work, and the
 * bridge runs inside Pi's own process. Only the running-work layer calls it, always with a signal
 * (`WorkScope.sliced`): the steps stop at their next pause once it is aborted.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Steps } from '../engine/steps';
import { stoppedBy } from './workStopped';

/**
 * Work done in one go before the thread is let go: well under the 50 ms any block may take. A
 * collection lands inside whichever slice runs, so a block is a slice plus a pause; 4 ms slices
 * also let V8's scheduled scavenges run between slices sooner. On the pruned 100 MB session the
 * preview rows' longest block went from 41-59 ms (8 ms slices) to 30-51 ms, the what-if's from
 * 24-36 to 15-29, at the same total time; 2 ms slices gained nothing more.
 */
export const SLICE_MS = 4;

export interface SliceOptions {
	/**
	 * Called after every slice but the last, before the thread is let go. A promise it returns is
	 * waited for instead of the next turn of the event loop (the bridge waits there for a client to
	 * read what was sent); what it throws ends the run, as a rejection.
	 */
	readonly betweenSlices?: () => void | Promise<void>;
	/**
	 * Runs the steps to their end even when the scope closes meanwhile (closing still waits for
	 * them): the read-back of a write whose bytes are already in the file, which a shutdown must not
	 * leave unchecked. Only for passes bounded by what was just written.
	 */
	readonly toTheEnd?: true;
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

export async function runSliced<T>(steps: Steps<T>, signal: AbortSignal, options: SliceOptions = {}, sliceMs = SLICE_MS): Promise<T> {
	try {
		for (;;) {
			if (signal.aborted) {
				throw stoppedBy(signal);
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
			const waited = options.betweenSlices?.();
			await (waited ?? nextTurn());
		}
	} finally {
		steps.return(undefined as never);
	}
}

import assert from 'node:assert/strict';
import type { Steps } from '../../../../src/engine/steps';
import { isSuperseded, runSliced, SLICE_MS } from '../../../../src/node/slicing/runSliced';

/** Busy for about `ms` per step, `count` steps. */
function* busySteps(count: number, ms: number, log: string[] = []): Steps<number> {
	try {
		for (let i = 0; i < count; i++) {
			const until = performance.now() + ms;
			while (performance.now() < until) {
				// spin: the work of one step
			}
			yield;
		}
		return count;
	} finally {
		log.push('closed');
	}
}

describe('runSliced', () => {
	it('runs the steps to their end and lets the thread run other work between slices', async () => {
		let turns = 0;
		const ticker = setInterval(() => turns++, 0);
		try {
			assert.equal(await runSliced(busySteps(20, SLICE_MS / 2)), 20);
		} finally {
			clearInterval(ticker);
		}
		assert.ok(turns > 0, 'a timer ran while the steps ran');
	});

	it('stops at the next pause once its signal is aborted, and closes the steps', async () => {
		const stop = new AbortController();
		const log: string[] = [];
		const running = runSliced(busySteps(1000, 1, log), stop.signal);
		setImmediate(() => stop.abort());
		await assert.rejects(running, (error: unknown) => isSuperseded(error));
		assert.deepEqual(log, ['closed']);
	});

	it('lets the thread go when many calls in a row each finish within their slice', async () => {
		let ran = false;
		setImmediate(() => {
			ran = true;
		});
		let ranBeforeTheEnd = false;
		for (let call = 0; call < 40; call++) {
			// Each call is shorter than a slice, and they follow one another without the loop turning.
			await runSliced(busySteps(1, 1));
			ranBeforeTheEnd ||= ran;
		}
		assert.ok(ranBeforeTheEnd, 'the loop turned during the chain of calls');
	});
});

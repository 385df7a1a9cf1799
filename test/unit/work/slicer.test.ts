import assert from 'node:assert/strict';
import type { Steps } from '../../../src/engine/steps';
import { runSliced, SLICE_MS } from '../../../src/work/slicer';
import { isWorkStopped } from '../../../src/work';
import { testScope } from '../../support/testWork';

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

const running = new AbortController().signal;

describe('the slicer', () => {
	it('runs the steps to their end and lets the thread run other work between slices', async () => {
		let turns = 0;
		const ticker = setInterval(() => turns++, 0);
		try {
			assert.equal(await runSliced(busySteps(20, SLICE_MS / 2), running), 20);
		} finally {
			clearInterval(ticker);
		}
		assert.ok(turns > 0, 'a timer ran while the steps ran');
	});

	it('stops at the next pause once its signal is aborted, and closes the steps', async () => {
		const stop = new AbortController();
		const log: string[] = [];
		const sliced = runSliced(busySteps(1000, 1, log), stop.signal);
		setImmediate(() => stop.abort());
		await assert.rejects(sliced, (error: unknown) => isWorkStopped(error));
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
			await runSliced(busySteps(1, 1), running);
			ranBeforeTheEnd ||= ran;
		}
		assert.ok(ranBeforeTheEnd, 'the loop turned during the chain of calls');
	});

	it('calls betweenSlices between two slices, waits for it, and ends the run when it throws', async () => {
		let between = 0;
		const ended: string[] = [];
		assert.equal(await runSliced(busySteps(10, SLICE_MS, ended), running, {
			betweenSlices: async () => {
				assert.deepEqual(ended, [], 'never once the steps have ended');
				between++;
				await new Promise((resolve) => setTimeout(resolve, 1));
			},
		}), 10);
		assert.ok(between >= 5 && between <= 10, `called between slices of 4 ms steps (${between} times)`);
		const log: string[] = [];
		await assert.rejects(runSliced(busySteps(100, SLICE_MS, log), running, {
			betweenSlices: () => {
				throw new Error('no longer wanted');
			},
		}), /no longer wanted/);
		assert.deepEqual(log, ['closed']);
	});

	it('runs a pass to its end under a closing scope when told to (toTheEnd), and closing waits for it', async () => {
		const scope = testScope('to the end');
		const log: string[] = [];
		const finished = scope.sliced(busySteps(30, 1, log), undefined, { toTheEnd: true });
		const stopped = scope.sliced(busySteps(1000, 1)).then(() => 'finished', (error: unknown) => (isWorkStopped(error) ? 'stopped' : String(error)));
		await scope.close();
		assert.deepEqual(log, ['closed'], 'the pass ran to its end before close resolved');
		assert.equal(await finished, 30);
		assert.equal(await stopped, 'stopped');
	});
});

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { runSliced } from '../../../../src/node/slicing/runSliced';
import { StoppableWork } from '../../../../src/node/slicing/stoppableWork';
import type { Steps } from '../../../../src/engine/steps';

/** A long pass that yields forever: only an abort ends it. */
function* endless(): Steps<never> {
	for (;;) {
		yield;
	}
}

describe('StoppableWork', () => {
	it('stops sliced work under way and resolves only once every piece has ended', async () => {
		const work = new StoppableWork();
		let slowEnded = false;
		const sliced = work.run((signal) => runSliced(endless(), signal)).then(() => 'finished', () => 'stopped');
		// A piece that ignores the signal: stop still waits for it (its file read must not outlive the shutdown).
		const slow = work.run(async () => {
			await sleep(50);
			slowEnded = true;
			return 'done';
		});
		assert.equal(work.size, 2);
		await work.stop();
		assert.ok(slowEnded, 'the slow piece ended before stop resolved');
		assert.equal(await sliced, 'stopped');
		assert.equal(await slow, 'done');
		assert.equal(work.size, 0);
	});

	it('refuses work asked for after stop, and keeps a caller\'s own signal', async () => {
		const work = new StoppableWork('closing');
		const own = new AbortController();
		const seen = work.run((signal) => {
			own.abort();
			return Promise.resolve(signal.aborted);
		}, own.signal);
		assert.equal(await seen, true);
		await work.stop();
		await assert.rejects(work.run(() => Promise.resolve(1)), /closing/);
	});
});

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { AdaptiveThrottle } from '../../../src/host/adaptiveThrottle';

function busyFor(ms: number): void {
	const until = performance.now() + ms;
	while (performance.now() < until) {
		// The run's own cost, which the next delay follows.
	}
}

describe('AdaptiveThrottle', () => {
	it('runs once for many requests within its delay', async () => {
		let runs = 0;
		const throttle = new AdaptiveThrottle(() => runs++, 20, 1000);
		for (let i = 0; i < 50; i++) {
			throttle.schedule();
		}
		await sleep(80);
		assert.equal(runs, 1);
		throttle.schedule();
		await sleep(80);
		assert.equal(runs, 2);
		throttle.dispose();
	});

	it('waits at least twice as long as the last run took, up to its maximum', async () => {
		const starts: number[] = [];
		const throttle = new AdaptiveThrottle(() => {
			starts.push(performance.now());
			busyFor(40);
		}, 5, 1000);
		throttle.schedule();
		await sleep(60);
		const asked = performance.now();
		throttle.schedule();
		await sleep(200);
		assert.equal(starts.length, 2);
		assert.ok((starts[1] ?? 0) - asked >= 79, `the second run waited ${((starts[1] ?? 0) - asked).toFixed(0)} ms after a 40 ms run`);
		throttle.dispose();
	});

	it('runs nothing once disposed', async () => {
		let runs = 0;
		const throttle = new AdaptiveThrottle(() => runs++, 10, 100);
		throttle.schedule();
		throttle.dispose();
		await sleep(40);
		assert.equal(runs, 0);
	});
});

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { testScope } from '../../support/testWork';

function busyFor(ms: number): void {
	const until = performance.now() + ms;
	while (performance.now() < until) {
		// The run's own cost, which the next delay follows.
	}
}

/** Waits until `count()` reaches `n` (timers may fire late on a busy machine, never early). */
async function until(count: () => number, n: number): Promise<void> {
	const deadline = Date.now() + 5000;
	while (count() < n) {
		assert.ok(Date.now() < deadline, `gave up waiting for run ${n}`);
		await sleep(5);
	}
}

describe('AdaptiveThrottle', () => {
	it('runs once for many requests made before it runs', async () => {
		let runs = 0;
		const scope = testScope();
		const throttle = scope.throttle(20, 1000, () => {
			runs++;
		});
		for (let i = 0; i < 50; i++) {
			throttle.schedule();
		}
		await until(() => runs, 1);
		await sleep(60);
		assert.equal(runs, 1);
		throttle.schedule();
		await until(() => runs, 2);
		await scope.close();
	});

	it('waits at least twice as long as the last run took', async () => {
		const starts: number[] = [];
		const scope = testScope();
		const throttle = scope.throttle(5, 1000, () => {
			starts.push(performance.now());
			busyFor(40);
		});
		throttle.schedule();
		await until(() => starts.length, 1);
		const asked = performance.now();
		throttle.schedule();
		await until(() => starts.length, 2);
		assert.ok((starts[1] ?? 0) - asked >= 79, `the second run waited ${((starts[1] ?? 0) - asked).toFixed(0)} ms after a 40 ms run`);
		await scope.close();
	});

	it('runs nothing once its scope is closed', async () => {
		let runs = 0;
		const scope = testScope();
		const throttle = scope.throttle(10, 100, () => {
			runs++;
		});
		throttle.schedule();
		await scope.close();
		await sleep(40);
		assert.equal(runs, 0);
	});
});

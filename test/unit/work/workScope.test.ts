import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Steps } from '../../../src/engine/steps';
import { isWorkStopped, WorkScope, WorkStopped } from '../../../src/work';
import { testScope } from '../../support/testWork';

/** A long pass that yields forever: only an abort ends it. */
function* endless(): Steps<never> {
	for (;;) {
		yield;
	}
}

const outcome = (promise: Promise<unknown>): Promise<string> => promise.then(() => 'finished', (error: unknown) => (isWorkStopped(error) ? 'stopped' : `failed: ${String(error)}`));

describe('WorkScope', () => {
	it('close stops sliced work under way and resolves only once every piece has ended', async () => {
		const scope = testScope();
		let slowEnded = false;
		const sliced = outcome(scope.run((signal) => scope.sliced(endless(), signal)));
		// A piece that ignores the signal: closing still waits for it (its file read must not outlive the shutdown).
		const slow = scope.run(async () => {
			await sleep(50);
			slowEnded = true;
			return 'done';
		});
		await scope.close();
		assert.ok(slowEnded, 'the slow piece ended before close resolved');
		assert.equal(await sliced, 'stopped');
		assert.equal(await slow, 'done');
	});

	it('refuses work asked for after close, and keeps a caller\'s own signal', async () => {
		const scope = testScope();
		const own = new AbortController();
		const seen = scope.run((signal) => {
			own.abort();
			return Promise.resolve(signal.aborted);
		}, own.signal);
		assert.equal(await seen, true);
		await scope.close();
		assert.equal(await outcome(scope.run(() => Promise.resolve(1))), 'stopped');
		assert.equal(await outcome(scope.sliced(endless())), 'stopped');
		assert.equal(scope.child('late').signal.aborted, true, 'a child made after close is closed');
	});

	it('closing a parent aborts and waits for its children\'s work, timers and cleanups; a child closes alone too', async () => {
		const root = testScope('root');
		const child = root.child('child');
		const grandchild = child.child('grandchild');
		const events: string[] = [];
		const deep = outcome(grandchild.sliced(endless()));
		grandchild.timeout(200, () => events.push('timer fired'));
		child.interval(200, () => events.push('poll'));
		child.onClose(async () => {
			await sleep(10);
			events.push('child cleaned up');
		});
		const alone = root.child('alone');
		const aloneWork = outcome(alone.sliced(endless()));
		await alone.close();
		assert.equal(await aloneWork, 'stopped');
		assert.equal(root.signal.aborted, false, 'closing a child leaves its parent open');
		await root.close();
		assert.equal(await deep, 'stopped');
		assert.deepEqual(events, ['child cleaned up']);
		await sleep(250);
		assert.deepEqual(events, ['child cleaned up'], 'no timer of a closed scope fires');
		assert.equal(grandchild.path, 'root/child/grandchild');
	});

	it('reports failures of work nobody waits for, never a stop, and runs a cleanup registered after close', async () => {
		const reported: string[] = [];
		const scope = WorkScope.root('reporting', (where, error) => reported.push(`${where}: ${String(error)}`));
		scope.child('part').start(() => Promise.reject(new Error('broken')));
		scope.start((signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new WorkStopped('closed')), { once: true })));
		await sleep(1);
		await scope.close();
		let late = false;
		scope.onClose(() => {
			late = true;
		});
		await scope.idle();
		assert.equal(late, true);
		assert.deepEqual(reported, ['reporting/part: Error: broken']);
	});

	it('debounce runs once after a burst, as the scope\'s work; a serial queue keeps order and drops what comes after close', async () => {
		const scope = testScope();
		let runs = 0;
		const debounce = scope.debounce(300, () => {
			runs++;
		});
		for (let i = 0; i < 10; i++) {
			debounce.schedule();
			await sleep(2);
		}
		assert.equal(runs, 0, 'not during the burst');
		while (runs === 0) {
			await sleep(10);
		}
		await sleep(350);
		assert.equal(runs, 1, 'once for the burst');
		const queue = scope.serialQueue();
		const order: string[] = [];
		const slow = queue.run(async () => {
			await sleep(20);
			order.push('slow');
		});
		const fast = queue.run(() => {
			order.push('fast');
			return Promise.resolve();
		});
		await Promise.all([slow, fast]);
		assert.deepEqual(order, ['slow', 'fast']);
		const held = queue.run(() => sleep(20));
		const after = outcome(queue.run(() => Promise.resolve()));
		debounce.schedule();
		await sleep(1);
		await scope.close();
		await held;
		assert.equal(await after, 'stopped', 'a task whose turn came after close did not run');
		await sleep(350);
		assert.equal(runs, 1, 'the debounce scheduled before close never ran');
	});
});

import assert from 'node:assert/strict';
import { isWorkStopped } from '../../../src/work';
import { testScope } from '../../support/testWork';

function gate(): { opened: Promise<void>; open: () => void } {
	let open = (): void => undefined;
	const opened = new Promise<void>((done) => {
		open = done;
	});
	return { opened, open };
}

const turns = (): Promise<void> => new Promise((done) => setTimeout(done, 0));

describe('Slots', () => {
	it('runs at most `count` tasks at once, the others in the order they asked', async () => {
		const slots = testScope().slots(2);
		const gates = [gate(), gate(), gate(), gate()];
		const started: number[] = [];
		let running = 0;
		let most = 0;
		const done = gates.map((each, n) => slots.run(async () => {
			started.push(n);
			most = Math.max(most, ++running);
			await each.opened;
			running--;
			return n * 10;
		}));
		await turns();
		assert.deepEqual(started, [0, 1]);
		gates[1]!.open();
		await turns();
		assert.deepEqual(started, [0, 1, 2], 'a freed slot goes to the first that waits');
		gates.forEach((each) => each.open());
		assert.deepEqual(await Promise.all(done), [0, 10, 20, 30]);
		assert.equal(most, 2);
	});

	it('a failed task frees its slot; a task whose turn comes after the scope closed is not run', async () => {
		const scope = testScope();
		const slots = scope.slots(1);
		const first = gate();
		const failing = slots.run(async () => {
			await first.opened;
			throw new Error('read failed');
		});
		let ranLate = false;
		const late = slots.run(() => {
			ranLate = true;
			return Promise.resolve();
		});
		first.open();
		await assert.rejects(failing, /read failed/);
		await late;
		assert.equal(ranLate, true, 'the slot was given on after a failure');
		const held = gate();
		const holding = slots.run(() => held.opened);
		let ranAfterClose = false;
		const waiting = slots.run(() => {
			ranAfterClose = true;
			return Promise.resolve();
		});
		const closing = scope.close();
		held.open();
		await holding.catch(() => undefined);
		await waiting.then(() => assert.fail('ran after the scope closed'), (error: unknown) => assert.ok(isWorkStopped(error)));
		await closing;
		assert.equal(ranAfterClose, false);
	});
});

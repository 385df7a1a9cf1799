import assert from 'node:assert/strict';
import { testScope } from '../../support/testWork';

function deferred(): { promise: Promise<void>; resolve: () => void } {
	let resolve = (): void => undefined;
	const promise = new Promise<void>((done) => {
		resolve = done;
	});
	return { promise, resolve };
}

describe('KeyedQueue', () => {
	it('runs at most `concurrency` tasks at once, and a key once at a time', async () => {
		const errors: unknown[] = [];
		const queue = testScope().keyedQueue(2, (_key, error) => errors.push(error));
		const gates = [deferred(), deferred(), deferred()];
		const started: string[] = [];
		queue.enqueue('a', async () => {
			started.push('a');
			await gates[0]!.promise;
		});
		queue.enqueue('b', async () => {
			started.push('b');
			await gates[1]!.promise;
		});
		queue.enqueue('c', async () => {
			started.push('c');
			await gates[2]!.promise;
		});
		queue.enqueue('c', () => Promise.reject(new Error('replaced before it ran')));
		await Promise.resolve();
		assert.deepEqual(started, ['a', 'b']);
		assert.equal(queue.has('c'), true);
		gates[0]!.resolve();
		await new Promise((done) => setTimeout(done, 0));
		assert.deepEqual(started, ['a', 'b']);
		gates.forEach((gate) => gate.resolve());
		await queue.idle();
		assert.equal(errors.length, 1, 'the second task for c replaced the first and ran');
	});

	it('runs a key once more when it is enqueued while running', async () => {
		const queue = testScope().keyedQueue(1, () => undefined);
		const gate = deferred();
		let runs = 0;
		queue.enqueue('k', async () => {
			runs++;
			await gate.promise;
		});
		await Promise.resolve();
		queue.enqueue('k', () => {
			runs++;
			return Promise.resolve();
		});
		queue.enqueue('k', () => {
			runs += 10;
			return Promise.resolve();
		});
		gate.resolve();
		await queue.idle();
		assert.equal(runs, 11, 'the first run, then only the newest task');
	});

	it('drops waiting work when its scope closes', async () => {
		const scope = testScope();
		const queue = scope.keyedQueue(1, () => undefined);
		const gate = deferred();
		let ran = false;
		queue.enqueue('a', () => gate.promise);
		queue.enqueue('b', () => {
			ran = true;
			return Promise.resolve();
		});
		const closing = scope.close();
		queue.enqueue('c', () => {
			ran = true;
			return Promise.resolve();
		});
		gate.resolve();
		await closing;
		await queue.idle();
		assert.equal(ran, false);
	});
});

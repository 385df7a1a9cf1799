/**
 * Tasks that run one at a time, in the order they were asked for, so that a slow one is never
 * overtaken by a newer one (two resolutions of a release racing to publish, two preview messages
 * posting out of order). Made by `WorkScope.serialQueue`: each task is the scope's work; a task whose
 * turn comes after the scope closed is not run (its promise rejects with `WorkStopped`).
 */
import type { WorkOwner } from './workOwner';

export class SerialQueue {
	private tail: Promise<unknown> = Promise.resolve();

	constructor(private readonly owner: WorkOwner) {}

	/** Runs `task` after every task queued before it; settles as it does (the queue goes on after a failure). */
	run<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T> {
		const result = this.tail.then(() => this.owner.run(task));
		this.tail = result.catch(() => undefined);
		return result;
	}

	/** Resolves once every task queued so far has settled. */
	async idle(): Promise<void> {
		await this.tail;
	}
}

/**
 * Background work with a concurrency cap, one task per key at a time: a key queued while its task
 * runs runs once more afterwards (with the newest task); one queued while it waits is not queued
 * twice. Keeps background reads (session summaries, reclaim figures) from piling up. Made by
 * `WorkScope.keyedQueue`: its tasks are the scope's work, and closing the scope drops what waits.
 */
import type { WorkOwner } from './workOwner';
import { isWorkStopped } from './workStopped';

type Task = (signal: AbortSignal) => Promise<void>;

export class KeyedQueue {
	private readonly waiting = new Map<string, Task>();
	private readonly running = new Set<string>();
	private readonly rerun = new Map<string, Task>();
	private idleWaiters: (() => void)[] = [];

	constructor(private readonly owner: WorkOwner, private readonly concurrency: number, private readonly onError: (key: string, error: unknown) => void) {
		owner.signal.addEventListener('abort', () => this.clear(), { once: true });
	}

	enqueue(key: string, task: Task): void {
		if (this.owner.signal.aborted) {
			return;
		}
		if (this.running.has(key)) {
			this.rerun.set(key, task);
			return;
		}
		this.waiting.set(key, task);
		this.pump();
	}

	has(key: string): boolean {
		return this.waiting.has(key) || this.running.has(key);
	}

	/** Drops what has not started yet. */
	clear(): void {
		this.waiting.clear();
		this.rerun.clear();
		this.settleIdle();
	}

	/** Resolves when nothing is waiting or running. */
	idle(): Promise<void> {
		if (this.waiting.size === 0 && this.running.size === 0) {
			return Promise.resolve();
		}
		return new Promise((done) => this.idleWaiters.push(done));
	}

	private pump(): void {
		while (this.running.size < this.concurrency && this.waiting.size > 0) {
			const [key, task] = this.waiting.entries().next().value as [string, Task];
			this.waiting.delete(key);
			this.running.add(key);
			void this.run(key, task);
		}
		this.settleIdle();
	}

	private async run(key: string, task: Task): Promise<void> {
		try {
			await this.owner.run(task);
		} catch (error) {
			if (!isWorkStopped(error)) {
				this.onError(key, error);
			}
		}
		this.running.delete(key);
		const again = this.rerun.get(key);
		if (again && !this.owner.signal.aborted) {
			this.rerun.delete(key);
			this.waiting.set(key, again);
		}
		this.pump();
	}

	private settleIdle(): void {
		if (this.waiting.size === 0 && this.running.size === 0 && this.idleWaiters.length > 0) {
			const waiters = this.idleWaiters;
			this.idleWaiters = [];
			for (const done of waiters) {
				done();
			}
		}
	}
}

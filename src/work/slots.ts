/**
 * Tasks that run at most `count` at a time, in the order they asked. For a burst of small reads (the
 * session watcher's first look at every file): started all at once, a thousand opens and reads
 * complete together and their callbacks hold the thread for tens of milliseconds in a row; a few at a
 * time, each callback comes on its own. Made by `WorkScope.slots`: each task is the scope's work, and a
 * task whose turn comes after the scope closed is not run (its promise rejects with `WorkStopped`).
 */
import type { WorkOwner } from './workOwner';

export class Slots {
	private free: number;
	private readonly waiting: (() => void)[] = [];

	constructor(private readonly owner: WorkOwner, count: number) {
		this.free = Math.max(1, count);
	}

	async run<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T> {
		if (this.free > 0) {
			this.free--;
		} else {
			await new Promise<void>((turn) => this.waiting.push(turn));
		}
		try {
			return await this.owner.run(task);
		} finally {
			const next = this.waiting.shift();
			if (next) {
				next();
			} else {
				this.free++;
			}
		}
	}
}

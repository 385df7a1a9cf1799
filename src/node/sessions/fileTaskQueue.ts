/**
 * Per-file scheduling for the session watcher: tasks for one file run one after the other (so its
 * offsets are never raced), and change notifications are turned into checks that are coalesced
 * over a short delay. Tasks and timers are the owning scope's: closing it clears the timers, skips
 * what is queued and waits for what runs.
 *
 * Nothing is lost by coalescing: a check reads to the end of the file, and a change heard once the
 * delay has fired asks for another check. (chokidar, which dropped every change of a file within
 * 50 ms of the last one it reported, needed a further "settle" check; a folder's own watch drops none.)
 */
import { isWorkStopped, type ScopeTimer, type WorkOwner } from '../../work';

export class FileTaskQueue {
	private readonly queues = new Map<string, Promise<void>>();
	private readonly coalesceTimers = new Map<string, ScopeTimer>();

	constructor(private readonly work: WorkOwner, private readonly coalesceMs: number, private readonly onError: (error: unknown) => void) {}

	/** Runs `task` after every task already queued for `path` (not at all once the scope is closed). */
	run(path: string, task: () => Promise<void>): Promise<void> {
		const previous = this.queues.get(path) ?? Promise.resolve();
		const next = previous.then(() => this.work.run(task)).catch((error: unknown) => {
			if (!isWorkStopped(error)) {
				this.onError(error);
			}
		});
		this.queues.set(path, next);
		void next.then(() => {
			if (this.queues.get(path) === next) {
				this.queues.delete(path);
			}
		});
		return next;
	}

	/** `path` changed: run `check` soon (once for a burst). */
	changed(path: string, check: () => Promise<void>): void {
		if (!this.coalesceTimers.has(path)) {
			// While a check is pending, further changes need nothing: it reads up to the end of the file.
			this.coalesceTimers.set(path, this.work.timeout(this.coalesceMs, () => {
				this.coalesceTimers.delete(path);
				void this.run(path, check);
			}));
		}
	}

	/** Forgets pending checks of `path` (the file is gone). */
	cancel(path: string): void {
		this.coalesceTimers.get(path)?.cancel();
		this.coalesceTimers.delete(path);
	}

	/** Resolves when every task queued so far has run. */
	async idle(): Promise<void> {
		await Promise.all(this.queues.values());
	}
}

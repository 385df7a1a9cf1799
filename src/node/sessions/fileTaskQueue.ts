/**
 * Per-file scheduling for the session watcher: tasks for one file run one after the other (so its
 * offsets are never raced), and change notifications are turned into checks that are coalesced
 * over a short delay and followed by one "settle" check once the file has been quiet.
 *
 * The settle check exists because chokidar 4 drops every `change` of a file that comes within
 * 50 ms of the previous one it reported, with no trailing event (`_throttle('change', path, 50)`
 * in its `_emit`): without it, a write just after a reported change would go unseen until the file
 * changed again.
 */

/** Longer than chokidar's 50 ms window in which it drops further changes of a file. */
const SETTLE_AFTER_MS = 80;

export class FileTaskQueue {
	private readonly queues = new Map<string, Promise<void>>();
	private readonly coalesceTimers = new Map<string, NodeJS.Timeout>();
	private readonly settleTimers = new Map<string, NodeJS.Timeout>();
	private closed = false;

	constructor(private readonly coalesceMs: number, private readonly onError: (error: unknown) => void) {}

	/** Runs `task` after every task already queued for `path`. */
	run(path: string, task: () => Promise<void>): Promise<void> {
		const previous = this.queues.get(path) ?? Promise.resolve();
		const next = previous.then(() => (this.closed ? undefined : task())).catch(this.onError);
		this.queues.set(path, next);
		void next.then(() => {
			if (this.queues.get(path) === next) {
				this.queues.delete(path);
			}
		});
		return next;
	}

	/** `path` changed: run `check` soon (once for a burst), and once more when the file is quiet. */
	changed(path: string, check: () => Promise<void>): void {
		if (this.closed) {
			return;
		}
		clearTimeout(this.settleTimers.get(path));
		this.settleTimers.set(path, setTimeout(() => {
			this.settleTimers.delete(path);
			void this.run(path, check);
		}, SETTLE_AFTER_MS));
		if (!this.coalesceTimers.has(path)) {
			// While a check is pending, further changes need nothing: it reads up to the end of the file.
			this.coalesceTimers.set(path, setTimeout(() => {
				this.coalesceTimers.delete(path);
				void this.run(path, check);
			}, this.coalesceMs));
		}
	}

	/** Forgets pending checks of `path` (the file is gone). */
	cancel(path: string): void {
		clearTimeout(this.coalesceTimers.get(path));
		clearTimeout(this.settleTimers.get(path));
		this.coalesceTimers.delete(path);
		this.settleTimers.delete(path);
	}

	/** Resolves when every task queued so far has run. */
	async idle(): Promise<void> {
		await Promise.all(this.queues.values());
	}

	/** Stops all timers; resolves when the running tasks have finished (queued ones are skipped). */
	async close(): Promise<void> {
		this.closed = true;
		for (const path of [...this.coalesceTimers.keys(), ...this.settleTimers.keys()]) {
			this.cancel(path);
		}
		await Promise.all(this.queues.values());
	}
}

/**
 * "A newer request replaces the older one", for work whose result is out of date once something
 * newer is asked for: the preparation of the selected session's views, the preview's refresh, the
 * Pruned Calls rebuild, Last sent, the bridges' scan. Runs never overlap, and every request is
 * answered by a run that starts after it. What a request does to the run under way is its policy:
 * - `restart`: stop it (its signal is aborted; a slice stops at its next pause) and run again once
 *   it has stopped. Its callers are answered by the newer run.
 * - `follow`: let it finish, then run again (a session Pi keeps appending to is still shown, though
 *   each append asks again before the previous run is done).
 * Requests made while a run is under way are answered together by the one run that follows it. Made
 * by `WorkScope.latestWins`: its runs are the scope's work, stopped and waited for when it closes.
 *
 * @example
 * const rebuilds = scope.latestWins((signal) => rebuild(signal));
 * void rebuilds.request('restart'); // the selection changed: the old rows are of no use
 */
import type { ErrorListener, WorkOwner } from './workOwner';
import { isWorkStopped, WorkStopped } from './workStopped';

export type LatestPolicy = 'restart' | 'follow';

interface Pending {
	readonly promise: Promise<void>;
	readonly resolve: (value: Promise<void> | undefined) => void;
}

export class LatestWins {
	private current: { readonly stop: AbortController; done: Promise<void> } | undefined;
	/** A run asked for while one is under way, with the callers waiting for it. */
	private pending: Pending | undefined;

	/**
	 * `work` is one run, stopped early when its signal is aborted (a `WorkStopped` it throws then is
	 * expected); `onError` hears any other failure. A request's promise never rejects.
	 */
	constructor(private readonly owner: WorkOwner, private readonly work: (signal: AbortSignal) => Promise<void>, private readonly onError: ErrorListener) {}

	/** Asks for a run; resolves when a run that started after this request has finished (at once once the scope is closed). */
	request(policy: LatestPolicy): Promise<void> {
		if (this.owner.signal.aborted) {
			return Promise.resolve();
		}
		const current = this.current;
		if (!current) {
			return this.start();
		}
		if (policy === 'restart') {
			current.stop.abort(new WorkStopped());
		}
		if (!this.pending) {
			let resolve: Pending['resolve'] = () => undefined;
			const promise = new Promise<void>((settle) => {
				resolve = (value) => settle(value);
			});
			this.pending = { promise, resolve };
		}
		return this.pending.promise;
	}

	/** Stops the run under way and forgets the runs asked for (their callers are answered at once). */
	cancel(): void {
		this.current?.stop.abort(new WorkStopped('cancelled'));
		const pending = this.pending;
		this.pending = undefined;
		pending?.resolve(undefined);
	}

	/** Whether a run is under way. */
	get isRunning(): boolean {
		return this.current !== undefined;
	}

	/** Resolves when no run is under way or asked for (tests). */
	async idle(): Promise<void> {
		while (this.current) {
			await this.current.done;
		}
	}

	private start(): Promise<void> {
		const stop = new AbortController();
		const run = { stop, done: Promise.resolve() };
		this.current = run;
		// Started at once, as the scope's work.
		const work = this.owner.run((signal) => this.work(signal), stop.signal);
		run.done = work.catch((error: unknown) => {
			if (!isWorkStopped(error)) {
				this.onError(error);
			}
		}).then(() => {
			this.current = undefined;
			const pending = this.pending;
			this.pending = undefined;
			if (!pending) {
				return undefined;
			}
			const next = this.owner.signal.aborted ? Promise.resolve() : this.start();
			pending.resolve(next);
			// Stopped for a newer request: this run's callers wait for that one.
			return stop.signal.aborted ? next : undefined;
		});
		return run.done;
	}
}

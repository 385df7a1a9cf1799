/**
 * "A newer request replaces the older one", for work that runs in slices (`runSliced`) and whose
 * result is out of date once something newer is asked for: the preparation of the selected
 * session's views, the preview's refresh, the Pruned Calls rebuild. Runs never overlap, and every
 * request is answered by a run that starts after it. What a request does to the run under way is
 * its policy:
 * - `restart`: stop it (its signal is aborted; `runSliced` then stops at its next slice) and run
 *   again once it has stopped. Its callers are answered by the newer run.
 * - `follow`: let it finish, then run again (a session Pi keeps appending to is still shown, though
 *   each append asks again before the previous run is done).
 * Requests made while a run is under way are answered together by the one run that follows it.
 * Knows nothing of VS Code.
 *
 * @example
 * const rebuilds = new LatestWins((signal) => rebuild(signal), (error) => log(error));
 * void rebuilds.request('restart'); // the selection changed: the old rows are of no use
 */
import { isSuperseded } from './runSliced';

export type LatestPolicy = 'restart' | 'follow';

interface Pending {
	readonly promise: Promise<void>;
	readonly resolve: (value: Promise<void> | undefined) => void;
}

export class LatestWins {
	private running: { readonly stop: AbortController; done: Promise<void> } | undefined;
	/** A run asked for while one is under way, with the callers waiting for it. */
	private pending: Pending | undefined;
	private disposed = false;

	/**
	 * `work` is one run, stopped early when its signal is aborted (a `SupersededError` it throws then
	 * is expected); `onError` hears any other failure. A request's promise never rejects.
	 */
	constructor(private readonly work: (signal: AbortSignal) => Promise<void>, private readonly onError: (error: unknown) => void) {}

	/** Asks for a run; resolves when a run that started after this request has finished. */
	request(policy: LatestPolicy): Promise<void> {
		if (this.disposed) {
			return Promise.resolve();
		}
		const running = this.running;
		if (!running) {
			return this.start();
		}
		if (policy === 'restart') {
			running.stop.abort();
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
		this.running?.stop.abort();
		const pending = this.pending;
		this.pending = undefined;
		pending?.resolve(undefined);
	}

	/** Resolves when no run is under way or asked for (tests). */
	async idle(): Promise<void> {
		while (this.running) {
			await this.running.done;
		}
	}

	dispose(): void {
		this.disposed = true;
		this.cancel();
	}

	private start(): Promise<void> {
		const stop = new AbortController();
		const run = { stop, done: Promise.resolve() };
		this.running = run;
		// Started at once (an async wrapper only turns a throw into a rejection).
		const work = (async (): Promise<void> => this.work(stop.signal))();
		run.done = work.catch((error: unknown) => {
			if (!isSuperseded(error)) {
				this.onError(error);
			}
		}).then(() => {
			this.running = undefined;
			const pending = this.pending;
			this.pending = undefined;
			if (!pending) {
				return undefined;
			}
			const next = this.disposed ? Promise.resolve() : this.start();
			pending.resolve(next);
			// Stopped for a newer request: this run's callers wait for that one.
			return stop.signal.aborted ? next : undefined;
		});
		return run.done;
	}
}

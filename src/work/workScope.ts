/**
 * The owner of running work. Every long-lived object owns a scope, made from its owner's scope by
 * `child`: what it runs in slices, its latest-wins runs, serial and keyed queues, debounces,
 * throttles and timers, and the work callers ask of it, all run under that scope. Closing a scope
 * aborts everything under it at once (its children's work too: a slice stops at its next pause, a
 * timer is cleared, a queued task is dropped), runs the cleanups registered with `onClose`, and
 * resolves once all of it has ended, file reads included. The extension has one root, made by the
 * composition root and closed by `deactivate`; the bridge has its own in Pi's process; the command
 * line and the tests make theirs.
 *
 * @example
 * class Rebuilder {
 * 	private readonly rebuilds: LatestWins;
 * 	constructor(private readonly scope: WorkScope) {
 * 		this.rebuilds = scope.latestWins((signal) => this.rebuild(signal));
 * 	}
 * 	private async rebuild(signal: AbortSignal): Promise<void> {
 * 		this.rows = await this.scope.sliced(buildRowsSteps(this.model), signal);
 * 	}
 * }
 * const root = WorkScope.root('Pi Condense', (where, error) => log.error(`${where}: ${errorMessage(error)}`));
 * new Rebuilder(root.child('rows'));
 * await root.close(); // nothing of the rebuilder runs after this
 */
import type { Steps } from '../engine/steps';
import { AdaptiveThrottle } from './adaptiveThrottle';
import { Debounce } from './debounce';
import { KeyedQueue } from './keyedQueue';
import { LatestWins } from './latestWins';
import { linkedSignal } from './linkedSignal';
import { SerialQueue } from './serialQueue';
import { Slots } from './slots';
import { runSliced, type SliceOptions } from './slicer';
import type { ErrorListener, ScopeTimer, WorkOwner } from './workOwner';
import { isWorkStopped, WorkStopped } from './workStopped';

/** The signal of work that runs to its end (`SliceOptions.toTheEnd`). */
const NEVER_ABORTED = new AbortController().signal;

/** Where a failure of background work goes: the scope's path (`Pi Condense/sessions`) and the error. */
export type WorkReport = (where: string, error: unknown) => void;

export class WorkScope implements WorkOwner {
	private readonly stop = new AbortController();
	private readonly running = new Set<Promise<unknown>>();
	private readonly children = new Set<WorkScope>();
	private readonly timers = new Set<NodeJS.Timeout>();
	private readonly cleanups: (() => unknown)[] = [];
	private closing: Promise<void> | undefined;

	private constructor(readonly name: string, private readonly parent: WorkScope | undefined, private readonly reporter: WorkReport) {}

	/** A scope of its own, closed by whoever made it (`deactivate`, the end of a command, a test). */
	static root(name: string, report: WorkReport): WorkScope {
		return new WorkScope(name, undefined, report);
	}

	/** Aborted once this scope (or one above it) starts closing. */
	get signal(): AbortSignal {
		return this.stop.signal;
	}

	get isClosed(): boolean {
		return this.stop.signal.aborted;
	}

	/** `root/child/grandchild`, as failures are reported. */
	get path(): string {
		return this.parent ? `${this.parent.path}/${this.name}` : this.name;
	}

	/** A scope for one object this scope's owner creates; it closes with this one, or by itself before. */
	child(name: string): WorkScope {
		const child = new WorkScope(name, this, this.reporter);
		if (this.isClosed) {
			child.abortAll(`${this.path} is closed`);
		} else {
			this.children.add(child);
		}
		return child;
	}

	report(error: unknown): void {
		if (!isWorkStopped(error)) {
			this.reporter(this.path, error);
		}
	}

	run<T>(work: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
		if (this.isClosed) {
			return Promise.reject(new WorkStopped(`${this.path} is closed`));
		}
		const linked = signal ? linkedSignal(this.signal, signal) : undefined;
		// Started at once (an async wrapper only turns a throw into a rejection).
		const promise = (async () => work(linked?.signal ?? this.signal))();
		this.running.add(promise);
		const forget = (): void => {
			this.running.delete(promise);
			linked?.dispose();
		};
		promise.then(forget, forget);
		return promise;
	}

	start(work: (signal: AbortSignal) => Promise<unknown>, onError: ErrorListener = (error) => this.report(error)): void {
		this.run(work).catch((error: unknown) => {
			if (!isWorkStopped(error)) {
				onError(error);
			}
		});
	}

	sliced<T>(steps: Steps<T>, signal?: AbortSignal, options?: SliceOptions): Promise<T> {
		if (options?.toTheEnd === true) {
			return this.track(runSliced(steps, NEVER_ABORTED, options));
		}
		return this.run((stop) => runSliced(steps, stop, options), signal);
	}

	/** Runs of `work` where a newer request replaces an older one (see `LatestWins`); failures go to `onError`. */
	latestWins(work: (signal: AbortSignal) => Promise<void>, onError: ErrorListener = (error) => this.report(error)): LatestWins {
		return new LatestWins(this, work, onError);
	}

	/** Tasks run one at a time, in order (see `SerialQueue`). */
	serialQueue(): SerialQueue {
		return new SerialQueue(this);
	}

	/** Tasks run at most `count` at a time, in order (see `Slots`). */
	slots(count: number): Slots {
		return new Slots(this, count);
	}

	/** Background tasks per key with a concurrency cap (see `KeyedQueue`). */
	keyedQueue(concurrency: number, onError: (key: string, error: unknown) => void): KeyedQueue {
		return new KeyedQueue(this, concurrency, onError);
	}

	/** `work` run once `delayMs` have passed with no further `schedule` (see `Debounce`). */
	debounce(delayMs: number, work: (signal: AbortSignal) => Promise<void> | void, onError?: ErrorListener): Debounce {
		return new Debounce(this, delayMs, work, onError);
	}

	/** `work` run at most once per delay that follows its cost (see `AdaptiveThrottle`). */
	throttle(minMs: number, maxMs: number, work: (signal: AbortSignal) => Promise<void> | void, onError?: ErrorListener): AdaptiveThrottle {
		return new AdaptiveThrottle(this, work, minMs, maxMs, onError);
	}

	/**
	 * Calls `fire` after `ms`. The timer never keeps a process alive (the bridge must not hold Pi's
	 * exit), and closing the scope clears it.
	 */
	timeout(ms: number, fire: () => void): ScopeTimer {
		if (this.isClosed) {
			return { cancel: () => undefined };
		}
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			fire();
		}, ms);
		timer.unref();
		this.timers.add(timer);
		return {
			cancel: () => {
				clearTimeout(timer);
				this.timers.delete(timer);
			},
		};
	}

	/** Calls `fire` every `ms` until the scope closes (a poll); never keeps a process alive. */
	interval(ms: number, fire: () => void): void {
		if (this.isClosed) {
			return;
		}
		const timer = setInterval(fire, ms);
		timer.unref();
		this.timers.add(timer);
	}

	/**
	 * Runs `cleanup` when the scope closes, after its work was aborted and beside the wait for it:
	 * closing a watcher, a socket, a worker. Cleanups run last registered first; `close` waits for
	 * the promises they return.
	 */
	onClose(cleanup: () => unknown): void {
		if (this.isClosed) {
			// Closed already: the cleanup runs now, and a `close` or `idle` still waiting waits for it.
			void this.track(Promise.resolve().then(cleanup).catch((error: unknown) => this.report(error)));
			return;
		}
		this.cleanups.push(cleanup);
	}

	/**
	 * Aborts everything under this scope, runs its cleanups and its children's, and resolves once
	 * all of it has ended. Work asked of it afterwards is refused. Never rejects: a cleanup's failure
	 * is reported.
	 */
	close(): Promise<void> {
		this.closing ??= this.closeNow();
		return this.closing;
	}

	/** Resolves once no work of this scope or below it is running (what started meanwhile included). */
	async idle(): Promise<void> {
		while (!this.isQuiet()) {
			await Promise.allSettled([...this.running, ...[...this.children].map((child) => child.idle())]);
		}
	}

	/** Work that closing waits for, whether or not the scope is closed already. */
	private track<T>(promise: Promise<T>): Promise<T> {
		this.running.add(promise);
		const forget = (): void => {
			this.running.delete(promise);
		};
		promise.then(forget, forget);
		return promise;
	}

	private isQuiet(): boolean {
		return this.running.size === 0 && [...this.children].every((child) => child.isQuiet());
	}

	/** Aborts this scope's signal and every one below it, and clears their timers, at once. */
	private abortAll(why: string): void {
		if (this.stop.signal.aborted) {
			return;
		}
		this.stop.abort(new WorkStopped(why));
		for (const timer of this.timers) {
			clearTimeout(timer);
		}
		this.timers.clear();
		for (const child of this.children) {
			child.abortAll(why);
		}
	}

	private async closeNow(): Promise<void> {
		this.abortAll(`${this.path} closed`);
		const cleanups = this.cleanups.splice(0).reverse().map(async (cleanup) => {
			try {
				await cleanup();
			} catch (error) {
				this.report(error);
			}
		});
		await Promise.allSettled([...cleanups, ...[...this.children].map((child) => child.close()), this.idle()]);
		this.parent?.children.delete(this);
	}
}

/**
 * Work started for callers (a recovery, the insight of a session that is not selected) that a
 * shutdown must stop and wait for: `run` hands each piece a signal that `stop` aborts, and `stop`
 * resolves once every piece has ended, so nothing of ours is still reading files after it. Work
 * asked for after `stop` is refused at once.
 */
export class StoppableWork {
	private readonly stopping = new AbortController();
	private readonly running = new Set<Promise<unknown>>();

	constructor(private readonly refusal = 'Pi Condense is shutting down') {}

	/** Runs `work` with a signal aborted by `stop` (combined with the caller's own, if any). */
	run<T>(work: (signal: AbortSignal) => Promise<T>, signal?: AbortSignal): Promise<T> {
		if (this.stopping.signal.aborted) {
			return Promise.reject(new Error(this.refusal));
		}
		const combined = signal ? AbortSignal.any([signal, this.stopping.signal]) : this.stopping.signal;
		const promise = (async () => work(combined))();
		this.running.add(promise);
		const forget = (): void => {
			this.running.delete(promise);
		};
		promise.then(forget, forget);
		return promise;
	}

	/** Aborts what runs and resolves when all of it has ended (failures included: their callers hear of them). */
	async stop(): Promise<void> {
		this.stopping.abort();
		await Promise.allSettled([...this.running]);
	}

	/** How many pieces are running (tests). */
	get size(): number {
		return this.running.size;
	}
}

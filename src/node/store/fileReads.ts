/**
 * The store's reads of session files that no caller waits for to the end (a row's summary or
 * reclaim figure, a session opened for a view): each gets the same signal, and closing stops them
 * between two pieces and resolves once none is running. Deactivation waits for it, so no read of
 * ours outlives the extension.
 */
export class FileReads {
	private readonly stopping = new AbortController();
	private readonly running = new Set<Promise<unknown>>();

	/** Whether closing began: a read that failed since may just have been stopped. */
	get stopped(): boolean {
		return this.stopping.signal.aborted;
	}

	/** Runs `read` with the signal that closing aborts; refused once closed. */
	track<T>(read: (signal: AbortSignal) => Promise<T>): Promise<T> {
		const signal = this.stopping.signal;
		if (signal.aborted) {
			return Promise.reject(new Error('Pi Condense is closing: no session file is read any more.'));
		}
		const running = read(signal);
		this.running.add(running);
		const forget = (): void => {
			this.running.delete(running);
		};
		running.then(forget, forget);
		return running;
	}

	/** Stops every read and resolves once none is running. */
	async close(): Promise<void> {
		this.stopping.abort();
		await Promise.allSettled([...this.running]);
	}
}

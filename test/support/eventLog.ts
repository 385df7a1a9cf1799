/**
 * Collects events from an asynchronous source and lets a test wait for one that matches. The
 * deadline only turns a missing event into a clear failure; no assertion depends on timing.
 */
export class EventLog<E> {
	readonly events: E[] = [];
	private readonly waiters: { matches: (event: E) => boolean; resolve: (event: E) => void }[] = [];

	readonly push = (event: E): void => {
		this.events.push(event);
		for (const waiter of [...this.waiters]) {
			if (waiter.matches(event)) {
				this.waiters.splice(this.waiters.indexOf(waiter), 1);
				waiter.resolve(event);
			}
		}
	};

	/** The first event (already seen or still to come) that matches; the deadline, generous for a loaded machine, stays under the tests' own timeouts. */
	waitFor(matches: (event: E) => boolean, what: string, deadlineMs = 25_000): Promise<E> {
		const seen = this.events.find(matches);
		if (seen !== undefined) {
			return Promise.resolve(seen);
		}
		return new Promise<E>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`No event: ${what}. Seen: ${JSON.stringify(this.events).slice(0, 2000)}`)), deadlineMs);
			this.waiters.push({ matches, resolve: (event) => {
				clearTimeout(timer);
				resolve(event);
			} });
		});
	}

	clear(): void {
		this.events.length = 0;
	}
}

export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

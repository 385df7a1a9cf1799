/**
 * Work run once a burst of requests has ended: each `schedule` starts the delay again, and the
 * work runs when it passes with no further request (a file that `npm install` or an editor writes
 * many times is read once). Made by `WorkScope.debounce`: the delay is the scope's timer and the run
 * its work, so closing the scope clears the one and stops and waits for the other.
 */
import type { ErrorListener, ScopeTimer, WorkOwner } from './workOwner';

export class Debounce {
	private timer: ScopeTimer | undefined;

	constructor(
		private readonly owner: WorkOwner,
		private readonly delayMs: number,
		private readonly work: (signal: AbortSignal) => Promise<void> | void,
		private readonly onError?: ErrorListener,
	) {}

	/** (Re)starts the delay. */
	schedule(): void {
		this.timer?.cancel();
		this.timer = this.owner.timeout(this.delayMs, () => {
			this.timer = undefined;
			this.owner.start(async (signal) => this.work(signal), this.onError);
		});
	}

	/** Whether a run is scheduled and has not started. */
	get scheduled(): boolean {
		return this.timer !== undefined;
	}

	/** Forgets a scheduled run (one under way goes on). */
	cancel(): void {
		this.timer?.cancel();
		this.timer = undefined;
	}
}

/**
 * Runs work at most once per delay, however often it is asked for. The delay adapts to the work's
 * own cost: never under `minMs`, never under twice the time the last run took, never over `maxMs`
 * (a session of hundreds of MB re-renders slowly; appends arrive line by line). Work that returns
 * a promise is timed until it settles (work done in slices). Made by `WorkScope.throttle`: the delay
 * is the scope's timer and the run its work.
 */
import type { ErrorListener, ScopeTimer, WorkOwner } from './workOwner';

export class AdaptiveThrottle {
	private timer: ScopeTimer | undefined;
	private lastRunMs = 0;

	constructor(
		private readonly owner: WorkOwner,
		private readonly work: (signal: AbortSignal) => Promise<void> | void,
		private readonly minMs: number,
		private readonly maxMs: number,
		private readonly onError?: ErrorListener,
	) {}

	/** Asks for a run: the one already scheduled answers it, else one is scheduled after the delay. */
	schedule(): void {
		if (this.timer !== undefined) {
			return;
		}
		const delay = Math.min(this.maxMs, Math.max(this.minMs, 2 * this.lastRunMs));
		this.timer = this.owner.timeout(delay, () => {
			this.timer = undefined;
			const started = performance.now();
			this.owner.start(async (signal) => {
				try {
					await this.work(signal);
				} finally {
					this.lastRunMs = performance.now() - started;
				}
			}, this.onError);
		});
	}

	/** Forgets a scheduled run (one under way goes on). */
	cancel(): void {
		this.timer?.cancel();
		this.timer = undefined;
	}
}

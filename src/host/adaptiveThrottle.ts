/**
 * Runs a callback at most once per delay, however often it is asked for. The delay adapts to the
 * callback's own cost: never under `minMs`, never under twice the time the last run took, never
 * over `maxMs` (a session of hundreds of MB re-renders slowly; appends arrive line by line). A
 * callback that returns a promise is timed until it settles (work done in slices).
 */
export class AdaptiveThrottle {
	private timer: NodeJS.Timeout | undefined;
	private lastRunMs = 0;

	constructor(private readonly run: () => unknown, private readonly minMs: number, private readonly maxMs: number) {}

	schedule(): void {
		if (this.timer !== undefined) {
			return;
		}
		const delay = Math.min(this.maxMs, Math.max(this.minMs, 2 * this.lastRunMs));
		this.timer = setTimeout(() => {
			this.timer = undefined;
			const started = performance.now();
			const result = this.run();
			const measure = (): void => {
				this.lastRunMs = performance.now() - started;
			};
			if (result instanceof Promise) {
				result.then(measure, measure);
			} else {
				measure();
			}
		}, delay);
	}

	dispose(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
	}
}

/**
 * Runs a callback at most once per delay, however often it is asked for. The delay adapts to the
 * callback's own cost: never under `minMs`, never under twice the time the last run took, never
 * over `maxMs` (a session of hundreds of MB re-renders slowly; appends arrive line by line).
 */
export class AdaptiveThrottle {
	private timer: NodeJS.Timeout | undefined;
	private lastRunMs = 0;

	constructor(private readonly run: () => void, private readonly minMs: number, private readonly maxMs: number) {}

	schedule(): void {
		if (this.timer !== undefined) {
			return;
		}
		const delay = Math.min(this.maxMs, Math.max(this.minMs, 2 * this.lastRunMs));
		this.timer = setTimeout(() => {
			this.timer = undefined;
			const started = performance.now();
			this.run();
			this.lastRunMs = performance.now() - started;
		}, delay);
	}

	dispose(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
	}
}

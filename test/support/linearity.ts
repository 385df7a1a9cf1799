/**
 * Measures whether a function's time grows linearly with its input: the time on a small input and
 * on a big one, and how much more that grew than a linear baseline's time on the same inputs (about
 * 1 or less for linear code; about the size ratio, 100 from 10 KB to 1 MB, for quadratic code). Used
 * by the unit tests of every regex and glob applied to session or model text, and by
 * `npm run stress adversarial`.
 *
 * The input grows by doubling from the small size to the big one, and the measurement stops early
 * once a step is both slow and clearly super-linear: a quadratic regex on 1 MB would run for many
 * minutes, and it is caught at a few hundred kilobytes instead. Only the two ends, and a step whose
 * one call is slow, are measured with care.
 */
import { performance } from 'node:perf_hooks';

export interface LinearityCase {
	readonly name: string;
	/** An adversarial input of about `chars` characters. */
	readonly input: (chars: number) => string;
	/** The production code under test, applied to the input. */
	readonly run: (input: string) => unknown;
}

export interface LinearityResult {
	readonly name: string;
	readonly smallChars: number;
	readonly bigChars: number;
	readonly smallMs: number;
	readonly bigMs: number;
	/** How much longer the big input took than the small one, over the same for the linear baseline. */
	readonly ratio: number;
	/** Set when the doubling stopped before the big size (the code was already far too slow). */
	readonly stoppedAt?: number;
}

export interface LinearityOptions {
	readonly smallChars?: number;
	readonly bigChars?: number;
	/** Give up growing once one call takes this long and the ratio is above `limit`. */
	readonly slowMs?: number;
	readonly limit?: number;
}

/**
 * The linear baseline: one pass over the input that also builds a string as long as it. Its time
 * per character steps up, as any code's does, once the strings no longer fit the caches and the
 * young generation (between about 100 KB and 300 KB here), so dividing by its growth leaves only
 * what the code under test adds to a linear growth.
 */
const BATCH_MS = 1;
const MEASURE_MS = 60;

const baseline: LinearityCase = { name: 'baseline', input: () => '', run: (input) => JSON.stringify(input) };

export function measureLinearity(subject: LinearityCase, options: LinearityOptions = {}): LinearityResult {
	const smallChars = options.smallChars ?? 10_000;
	const bigChars = options.bigChars ?? 1_000_000;
	const slowMs = options.slowMs ?? 200;
	const limit = options.limit ?? 3;
	const small = subject.input(smallChars);
	warmUp(subject, small);
	warmUp(baseline, small);
	const smallMs = timePerCall(subject, small);
	const baseSmallMs = timePerCall(baseline, small);
	let chars = smallChars;
	for (;;) {
		chars = Math.min(bigChars, chars * 2);
		const input = subject.input(chars);
		// A size on the way is only there to stop early: one call says whether it is slow, and only a slow one is
		// measured (its single time may be a pause of a busy machine, not the code).
		if (chars < bigChars && once(subject, input) <= slowMs) {
			continue;
		}
		const ms = timePerCall(subject, input);
		const growth = Math.max(timePerCall(baseline, input) / baseSmallMs, chars / smallChars);
		const ratio = ms / smallMs / growth;
		const stopped = chars < bigChars && ms > slowMs && ratio > limit;
		if (chars >= bigChars || stopped) {
			return { name: subject.name, smallChars, bigChars: chars, smallMs, bigMs: ms, ratio, ...(stopped ? { stoppedAt: chars } : {}) };
		}
	}
}

function once(subject: LinearityCase, input: string): number {
	const start = performance.now();
	subject.run(input);
	return performance.now() - start;
}

export function describeLinearity(result: LinearityResult): string {
	const stopped = result.stoppedAt === undefined ? '' : ` (stopped at ${result.stoppedAt} chars: too slow)`;
	return `${result.name}: ${result.smallMs.toFixed(3)} ms on ${result.smallChars} chars, ${result.bigMs.toFixed(3)} ms on ${result.bigChars} chars, ${result.ratio.toFixed(2)}x the linear baseline${stopped}`;
}

/** Runs the code until the JIT has compiled it: the first timing would otherwise include that. */
function warmUp(subject: LinearityCase, input: string): void {
	const start = performance.now();
	for (let calls = 0; calls < 1000 && performance.now() - start < MEASURE_MS; calls++) {
		subject.run(input);
	}
}

/**
 * The fastest batch of calls, per call. A batch lasts at least a millisecond (so the clock's
 * resolution does not matter) and batches repeat for `MEASURE_MS`: the fastest one is the run least
 * disturbed by garbage collection and other processes, whatever the input size.
 */
function timePerCall(subject: LinearityCase, input: string): number {
	const first = performance.now();
	subject.run(input);
	const once = performance.now() - first;
	const batch = once >= BATCH_MS ? 1 : Math.ceil(BATCH_MS / Math.max(once, 0.001));
	let best = once;
	const start = performance.now();
	for (let rounds = 0; rounds < 3 || performance.now() - start < MEASURE_MS; rounds++) {
		const begin = performance.now();
		for (let call = 0; call < batch; call++) {
			subject.run(input);
		}
		best = Math.min(best, (performance.now() - begin) / batch);
		if (once > MEASURE_MS && rounds >= 2) {
			break; // slow calls: the best of four is enough (one alone is at the mercy of a busy machine)
		}
	}
	return best;
}

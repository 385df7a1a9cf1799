/**
 * How many of the provider's tokens one of our estimated tokens is, for this session: our estimate is
 * pi-condense's (characters of the JSON / 4), the provider counts with its tokenizer and adds what the
 * session file does not hold (the system prompt before Pi 1.x, tool declarations). Pure.
 *
 * The factor is read from growth, so the part the file does not hold cancels out: between two
 * requests of one epoch (nothing changed but messages appended), the recorded prompt grew by some
 * tokens and our estimate by others; each such pair gives one ratio. The factor is their median and
 * its range the middle half (25th to 75th percentile), which is what makes every figure built on it
 * a range. With fewer than three pairs the ratios of whole prompts stand in (their median, their
 * extremes); with none the factor is 1 and the range says it is not calibrated.
 */
import type { ReplyMeasure } from './pruneMeasureTypes';
import type { RequestPoint } from './requestTypes';
import { paced, type Steps } from '../steps';

export interface Calibration {
	/** Provider tokens per estimated token. */
	readonly factor: number;
	readonly low: number;
	readonly high: number;
	/** How it was read. */
	readonly from: 'growth' | 'whole-prompts' | 'none';
	/** Pairs (or prompts) it was read from. */
	readonly samples: number;
}

/** Growth smaller than this (estimated tokens) is noise: one short reply. */
const MIN_GROWTH = 50;

/** In steps: a long session has tens of thousands of replies. */
export function* calibrateSteps(replies: readonly ReplyMeasure[], requests: readonly RequestPoint[]): Steps<Calibration> {
	const usable: ReplyMeasure[] = [];
	for (let i = 0; i < replies.length; i++) {
		if (paced(i)) {
			yield;
		}
		const reply = replies[i] as ReplyMeasure;
		const request = requests[reply.request] as RequestPoint;
		if (request.contextTokens > 0 && reply.estimate > 0 && request.stopReason !== 'error' && request.stopReason !== 'aborted') {
			usable.push(reply);
		}
	}
	const slopes: number[] = [];
	for (let i = 1; i < usable.length; i++) {
		if (paced(i)) {
			yield;
		}
		const before = usable[i - 1] as ReplyMeasure;
		const after = usable[i] as ReplyMeasure;
		const grew = after.estimate - before.estimate;
		const recordedGrowth = (requests[after.request] as RequestPoint).contextTokens - (requests[before.request] as RequestPoint).contextTokens;
		if (before.epoch === after.epoch && grew >= MIN_GROWTH && recordedGrowth > 0) {
			slopes.push(recordedGrowth / grew);
		}
	}
	if (slopes.length >= 3) {
		return fromSamples(slopes, 'growth', 0.25, 0.75);
	}
	const ratios = usable.map((reply) => (requests[reply.request] as RequestPoint).contextTokens / reply.estimate);
	if (ratios.length > 0) {
		return fromSamples(ratios, 'whole-prompts', 0, 1);
	}
	return { factor: 1, low: 1, high: 1, from: 'none', samples: 0 };
}

/** Sorted as numbers in a typed array: tens of thousands of samples in a few milliseconds. */
function fromSamples(samples: readonly number[], from: Calibration['from'], lowQuantile: number, highQuantile: number): Calibration {
	const sorted = Float64Array.from(samples).sort();
	return { factor: quantile(sorted, 0.5), low: quantile(sorted, lowQuantile), high: quantile(sorted, highQuantile), from, samples: samples.length };
}

/** Linear interpolation between the closest ranks. */
function quantile(sorted: Float64Array, q: number): number {
	const position = (sorted.length - 1) * q;
	const below = Math.floor(position);
	const above = Math.ceil(position);
	const low = sorted[below] as number;
	return low + ((sorted[above] as number) - low) * (position - below);
}

/**
 * Sums of dollar figures that do not depend on the order they are added in: the history adds
 * hundreds of thousands of costs, and adds them per session, per quarter hour or per request depending
 * on what the index kept (`historyDigest.ts`). A float sum taken left to right differs in its last
 * bits with the order; this one keeps the exact sum as a few non-overlapping floats (Shewchuk's
 * partials, the algorithm behind Python's `math.fsum`) and rounds it once, correctly, when it is read.
 * So a report is the same to the last digit however its sums were grouped, and a figure that was
 * added and then taken away (a fork's copy of its parent's request) leaves no trace. Pure.
 */
import type { Range } from './pruneAccount';

/** An exact running sum of finite numbers. */
export class ExactSum {
	/** The first `count` are the partials, smallest first (the array only grows: reused in place). */
	private readonly parts: number[] = [];
	private count = 0;

	/** Adds `value` exactly (a non-finite value is ignored: no usage figure is one). */
	add(value: number): this {
		if (value === 0 || !Number.isFinite(value)) {
			return this;
		}
		const parts = this.parts;
		let x = value;
		let kept = 0;
		for (let i = 0; i < this.count; i++) {
			let y = parts[i] as number;
			if (Math.abs(x) < Math.abs(y)) {
				const swap = x;
				x = y;
				y = swap;
			}
			const high = x + y;
			const low = y - (high - x);
			if (low !== 0) {
				parts[kept++] = low;
			}
			x = high;
		}
		parts[kept] = x;
		this.count = kept + 1;
		return this;
	}

	/** Adds another exact sum (its partials), exactly. */
	addParts(parts: readonly number[], sign: 1 | -1 = 1): this {
		for (const part of parts) {
			this.add(sign * part);
		}
		return this;
	}

	/** True when nothing but zeros was added. */
	get empty(): boolean {
		return this.count === 0;
	}

	/** The partials, smallest first: what a stored digest keeps of the sum. */
	partials(): number[] {
		return this.parts.slice(0, this.count);
	}

	/** The exact sum rounded once to the nearest float (ties to even). */
	value(): number {
		const parts = this.parts;
		let n = this.count;
		if (n === 0) {
			return 0;
		}
		let high = parts[--n] as number;
		let low = 0;
		while (n > 0) {
			const x = high;
			const y = parts[--n] as number;
			high = x + y;
			low = y - (high - x);
			if (low !== 0) {
				break;
			}
		}
		// Half-way case: the rounding of `high + low` went one way, the partials below say the other.
		if (n > 0 && ((low < 0 && (parts[n - 1] as number) < 0) || (low > 0 && (parts[n - 1] as number) > 0))) {
			const y = low * 2;
			const x = high + y;
			if (y === x - high) {
				high = x;
			}
		}
		return high;
	}
}

/** The exact sum of `values`, correctly rounded. */
export function exactSum(values: Iterable<number>): number {
	const sum = new ExactSum();
	for (const value of values) {
		sum.add(value);
	}
	return sum.value();
}

/** A Range summed exactly, with a count. */
export class RangeSum {
	count = 0;
	/** Ranges of one value (a rebuild's cost) are summed once, not three times. */
	private readonly single = new ExactSum();
	private readonly sums = [new ExactSum(), new ExactSum(), new ExactSum()] as const;
	add(range: Range): void {
		this.count++;
		if (range.low === range.mid && range.mid === range.high) {
			this.single.add(range.mid);
		} else {
			this.sums[0].add(range.low);
			this.sums[1].add(range.mid);
			this.sums[2].add(range.high);
		}
	}
	/** Adds `count` values whose exact sum is `partials` (each a range of one value). */
	addSingles(count: number, partials: readonly number[]): void {
		this.count += count;
		this.single.addParts(partials);
	}
	range(): Range {
		if (this.sums.every((sum) => sum.empty)) {
			// Only ranges of one value (rebuilds), or none: one sum, one value.
			const value = this.single.value();
			return { low: value, mid: value, high: value };
		}
		const single = this.single.partials();
		const [low, mid, high] = this.sums.map((sum) => new ExactSum().addParts(sum.partials()).addParts(single).value()) as [number, number, number];
		return { low, mid, high };
	}
}

/** Binary search over ascending numbers. Pure. */

/** The index of the first value ≥ `value` in `sorted` (ascending); `sorted.length` when none is. */
export function firstAtOrAbove(sorted: readonly number[], value: number): number {
	let low = 0;
	let high = sorted.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		if ((sorted[middle] as number) < value) {
			low = middle + 1;
		} else {
			high = middle;
		}
	}
	return low;
}

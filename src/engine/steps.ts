/**
 * Long computations of the engine are generators that yield between small pieces of work, so a
 * caller on a shared thread (the extension host) can pause them, let other work run, resume them
 * or drop them. A yield carries nothing and costs little; the caller decides when to pause. Pure:
 * `runSteps` runs one to its end at once, as the CLI and the tests do.
 *
 * @example
 * function* countSteps(items: readonly number[]): Steps<number> {
 * 	let total = 0;
 * 	for (let i = 0; i < items.length; i++) {
 * 		if (i % PACE === PACE - 1) yield;
 * 		total += items[i] ?? 0;
 * 	}
 * 	return total;
 * }
 * runSteps(countSteps([1, 2])); // 3
 */
export type Steps<T> = Generator<undefined, T, undefined>;

/**
 * Items a loop handles between two yields: small enough that the slowest per-item work (a message
 * rendered into a row, about 50 µs on a loaded machine) keeps a stretch well under 50 ms, large
 * enough that yielding costs nothing measurable.
 */
export const PACE = 128;

/** Runs the steps to their end on this thread and returns the result. */
export function runSteps<T>(steps: Steps<T>): T {
	for (;;) {
		const next = steps.next();
		if (next.done) {
			return next.value;
		}
	}
}

/**
 * Characters serialized or scanned between two yields when items differ wildly in size (one tool
 * result may be megabytes): about a millisecond of `JSON.stringify`.
 */
const PACE_CHARS = 512 * 1024;

/**
 * Decides when to yield from both the items handled and their size:
 * `if (pacer.due(text.length)) yield;`
 */
export class Pacer {
	private items = 0;
	private chars = 0;

	/** Counts one item of `chars` characters; true when it is time to yield. */
	due(chars: number): boolean {
		this.items++;
		this.chars += chars;
		if (this.items >= PACE || this.chars >= PACE_CHARS) {
			this.items = 0;
			this.chars = 0;
			return true;
		}
		return false;
	}
}

/** True at every PACE-th index: `if (paced(i)) yield;` */
export function paced(index: number): boolean {
	return index % PACE === PACE - 1;
}

/** `array.map` that yields every PACE items. */
export function* mapSteps<T, U>(items: readonly T[], map: (item: T, index: number) => U): Steps<U[]> {
	const out: U[] = new Array<U>(items.length);
	for (let i = 0; i < items.length; i++) {
		if (paced(i)) {
			yield;
		}
		out[i] = map(items[i] as T, i);
	}
	return out;
}

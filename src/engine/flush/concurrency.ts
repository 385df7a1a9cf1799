/**
 * How many summarizer calls a flush may run at once, as the `piCondense.summarizer.concurrency`
 * setting gives it. pi-condense runs its calls one at a time; running them side by side is Pi
 * Condense's speed-up, and it writes the same entries (answers are used in batch order, up to the
 * first failure). Pure.
 */
import { DEFAULT_CONCURRENCY } from './flushTypes';

export const MAX_CONCURRENCY = 64;

/** A whole number from 1 to `MAX_CONCURRENCY` (a fraction floored, anything beyond clamped); not a number: the default. */
export function concurrencySetting(value: unknown): number {
	if (typeof value !== 'number' || !Number.isFinite(value)) {
		return DEFAULT_CONCURRENCY;
	}
	return Math.min(MAX_CONCURRENCY, Math.max(1, Math.floor(value)));
}

/**
 * Cutting texts to a bound for the page. Pure.
 */
import type { BoundedText } from './types';

/** No bound: the full text (what a row's expansion sends). */
export const UNBOUNDED = Number.POSITIVE_INFINITY;

/**
 * The first `max` characters of `text` (never splitting a surrogate pair), with the full length.
 *
 * @example
 * bounded('abcdef', 3) // { text: 'abc', total: 6 }
 */
export function bounded(text: string, max: number): BoundedText {
	if (text.length <= max) {
		return { text, total: text.length };
	}
	let end = max;
	const last = text.charCodeAt(end - 1);
	if (last >= 0xd800 && last <= 0xdbff) {
		end--;
	}
	return { text: text.slice(0, end), total: text.length };
}

export function isCut(text: BoundedText): boolean {
	return text.text.length < text.total;
}

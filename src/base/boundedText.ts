/**
 * Cutting texts to a bound: the preview's rows for the page, one-line texts for the command line and
 * the offline summarizer. Pure.
 */

/** A text cut to a bound for the page; `total` is the full length in UTF-16 code units. */
export interface BoundedText {
	readonly text: string;
	readonly total: number;
}

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

/**
 * `text` with every run of whitespace (what `\s` matches) turned into one space and both ends
 * trimmed, then cut to `max` characters with `…` when longer: exactly
 * `shorten(text.replace(/\s+/g, ' ').trim(), max)`, but it stops once `max` characters are known,
 * so a megabyte of session text costs no more than the characters it looks at.
 *
 * @example
 * collapsedWhitespace('  a \n b  ', 10) // 'a b'
 */
export function collapsedWhitespace(text: string, max: number): string {
	let out = '';
	let space = false;
	for (let i = 0; i < text.length && out.length <= max; i++) {
		if (isWhitespace(text.charCodeAt(i))) {
			space = out !== '';
			continue;
		}
		out += space ? ` ${text.charAt(i)}` : text.charAt(i);
		space = false;
	}
	return out.length <= max ? out : `${out.slice(0, max - 1)}…`;
}

/** The code units a regular expression's `\s` matches (WhiteSpace and LineTerminator). */
function isWhitespace(code: number): boolean {
	return (code >= 0x09 && code <= 0x0d) || code === 0x20 || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a)
		|| code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

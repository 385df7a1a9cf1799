/**
 * The texts of the items of a JSON array, found by scanning the text (strings and nesting followed),
 * in steps: a request's messages can be megabytes, and parsing them item by item never holds the
 * thread for the whole. Undefined when the text is not one JSON array. Pure.
 *
 * @example
 * runSteps(jsonArrayItemsSteps('[{"a":"]"}, 2]')) // ['{"a":"]"}', '2']
 */
import type { Steps } from '../steps';

/** Characters scanned between two yields. */
const SCAN_CHARS = 256 * 1024;
const SPECIAL = /["\\[\]{},]/g;
const IN_STRING = /["\\]/g;

export function* jsonArrayItemsSteps(text: string): Steps<string[] | undefined> {
	const first = text.search(/\S/);
	if (first < 0 || text[first] !== '[') {
		return undefined;
	}
	const items: string[] = [];
	let depth = 0;
	let itemStart = first + 1;
	let scanned = 0;
	let at = first;
	for (;;) {
		SPECIAL.lastIndex = at;
		const match = SPECIAL.exec(text);
		if (!match) {
			return undefined;
		}
		const next = match.index;
		scanned += next - at + 1;
		at = next + 1;
		switch (match[0]) {
			case '"': {
				// To the string's closing quote, past escapes.
				for (;;) {
					IN_STRING.lastIndex = at;
					const inner = IN_STRING.exec(text);
					if (!inner) {
						return undefined;
					}
					scanned += inner.index - at + 1;
					at = inner.index + 1;
					if (inner[0] === '"') {
						break;
					}
					at++;
				}
				break;
			}
			case '[':
			case '{':
				depth++;
				break;
			case ']':
			case '}':
				depth--;
				if (depth === 0) {
					const last = text.slice(itemStart, next).trim();
					if (last.length > 0) {
						items.push(last);
					} else if (items.length > 0) {
						return undefined;
					}
					return text.slice(at).trim() === '' ? items : undefined;
				}
				break;
			case ',':
				if (depth === 1) {
					const item = text.slice(itemStart, next).trim();
					if (item.length === 0) {
						return undefined;
					}
					items.push(item);
					itemStart = next + 1;
				}
				break;
		}
		if (scanned >= SCAN_CHARS) {
			scanned = 0;
			yield;
		}
	}
}

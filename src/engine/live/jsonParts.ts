/**
 * JSON text taken apart without holding the thread: the texts of the items of an array, or of the
 * members of an object, found by scanning (strings and nesting followed) in steps, and a parse built
 * on it that reads a large array or object a part at a time. A request's messages or payload can be
 * megabytes, and one `JSON.parse` of it would hold the thread for the whole. Pure.
 *
 * @example
 * runSteps(jsonArrayItemsSteps('[{"a":"]"}, 2]')) // ['{"a":"]"}', '2']
 * runSteps(parseJsonSteps('{"a":[1,2]}'))          // { a: [1, 2] }
 */
import type { Steps } from '../steps';

/** Characters scanned between two yields. */
const SCAN_CHARS = 256 * 1024;
/** A text up to this long is parsed at once (about a millisecond of `JSON.parse`). */
const PARSE_AT_ONCE_CHARS = 256 * 1024;
const SPECIAL = /["\\[\]{},]/g;
const IN_STRING = /["\\]/g;
const KEY = /^\s*("(?:[^"\\]|\\.)*")\s*:/s;

/** The texts of the parts (items, or `"key": value` members) of the array or object `text` is; undefined for anything else. */
function* containerPartsSteps(text: string, open: '[' | '{'): Steps<string[] | undefined> {
	const first = text.search(/\S/);
	if (first < 0 || text[first] !== open) {
		return undefined;
	}
	const parts: string[] = [];
	let depth = 0;
	let partStart = first + 1;
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
					const last = text.slice(partStart, next).trim();
					if (last.length > 0) {
						parts.push(last);
					} else if (parts.length > 0) {
						return undefined;
					}
					return text.slice(at).trim() === '' ? parts : undefined;
				}
				break;
			case ',':
				if (depth === 1) {
					const part = text.slice(partStart, next).trim();
					if (part.length === 0) {
						return undefined;
					}
					parts.push(part);
					partStart = next + 1;
				}
				break;
		}
		if (scanned >= SCAN_CHARS) {
			scanned = 0;
			yield;
		}
	}
}

/** The texts of the items of the JSON array `text` is; undefined when it is not one. */
export function jsonArrayItemsSteps(text: string): Steps<string[] | undefined> {
	return containerPartsSteps(text, '[');
}

/** `JSON.parse(text)`, a large array or object read a part at a time; throws as `JSON.parse` does. */
export function* parseJsonSteps(text: string): Steps<unknown> {
	if (text.length <= PARSE_AT_ONCE_CHARS) {
		return JSON.parse(text) as unknown;
	}
	const items = yield* containerPartsSteps(text, '[');
	if (items) {
		const values: unknown[] = [];
		for (const item of items) {
			values.push(yield* parseJsonSteps(item));
		}
		return values;
	}
	const members = yield* containerPartsSteps(text, '{');
	if (!members) {
		yield;
		return JSON.parse(text) as unknown;
	}
	const record: Record<string, unknown> = {};
	for (const member of members) {
		const key = KEY.exec(member.slice(0, 64 * 1024));
		if (!key?.[1]) {
			throw new SyntaxError('a member of a JSON object without its key');
		}
		// Defined, never assigned: a member named "__proto__" stays a member, as JSON.parse makes it.
		Object.defineProperty(record, JSON.parse(key[1]) as string, {
			value: yield* parseJsonSteps(member.slice(key[0].length)), enumerable: true, writable: true, configurable: true,
		});
	}
	return record;
}

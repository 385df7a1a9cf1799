/**
 * `JSON.stringify(value).length`, counted without building the string. pi-condense measures every
 * message this way; serializing them all makes a copy of the whole context that is thrown away at
 * once (100 MB of strings for a 100 MB session, most of the preview's allocation), and each
 * collection of that garbage can pause the extension host.
 *
 * Exact for what `JSON.stringify` does with parsed JSON and the plain objects the engine builds:
 * own enumerable string keys, `undefined`, functions and symbols left out of objects and written
 * as `null` in arrays, non-finite numbers as `null`, and strings escaped as ECMAScript's
 * `QuoteJSONString` escapes them (`\"`, `\\`, the short escapes, `\u00XX` for other control
 * characters and `\uXXXX` for lone surrogates). Anything with a `toJSON` method, and big integers
 * (which throw), are handed to `JSON.stringify` itself.
 */

/** Length of `JSON.stringify(value)`; 0 where it returns undefined (undefined, a function, a symbol). */
export function jsonLength(value: unknown): number {
	switch (typeof value) {
		case 'string':
			return quotedLength(value);
		case 'number':
			return Number.isFinite(value) ? numberLength(value) : 4;
		case 'boolean':
			return value ? 4 : 5;
		case 'object':
			return value === null ? 4 : objectLength(value);
		case 'bigint':
			return (JSON.stringify(value) as string | undefined)?.length ?? 0;
		default:
			return 0;
	}
}

/**
 * `JSON.stringify(value).length` as a program writes it: for a value `JSON.stringify` returns
 * undefined for (undefined, a function, a symbol) reading `.length` throws, and so does this.
 */
export function stringifiedLength(value: unknown): number {
	if (isOmitted(value)) {
		throw new TypeError(`JSON.stringify(${typeof value}) has no length`);
	}
	return jsonLength(value);
}

/** Matches any character `JSON.stringify` escapes: if none is found the string is copied as it is. */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function quotedLength(text: string): number {
	if (!NEEDS_ESCAPE.test(text)) {
		return text.length + 2;
	}
	let length = text.length + 2;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code === 0x22 || code === 0x5c || code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) {
			length += 1;
		} else if (code < 0x20) {
			length += 5;
		} else if (code >= 0xd800 && code <= 0xdfff) {
			const next = text.charCodeAt(i + 1);
			if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
				i++; // a pair is copied as it is
			} else {
				length += 5;
			}
		}
	}
	return length;
}

function numberLength(value: number): number {
	// Small integers (counts, token figures, most timestamps) without making their string.
	if (Number.isSafeInteger(value) && value !== 0) {
		let digits = value < 0 ? 2 : 1;
		for (let rest = Math.abs(value); rest >= 10; rest = Math.floor(rest / 10)) {
			digits++;
		}
		return digits;
	}
	return String(value).length;
}

function objectLength(value: object): number {
	if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
		return (JSON.stringify(value) as string | undefined)?.length ?? 0;
	}
	if (Array.isArray(value)) {
		let length = value.length === 0 ? 2 : value.length + 1;
		for (const item of value as unknown[]) {
			length += isOmitted(item) ? 4 : jsonLength(item);
		}
		return length;
	}
	let length = 2;
	let members = 0;
	for (const key in value) {
		if (!Object.prototype.hasOwnProperty.call(value, key)) {
			continue;
		}
		const member = (value as Record<string, unknown>)[key];
		if (isOmitted(member)) {
			continue;
		}
		length += quotedLength(key) + 1 + jsonLength(member);
		members++;
	}
	return members === 0 ? length : length + members - 1;
}

/** Values `JSON.stringify` leaves out of an object (and writes as `null` in an array). */
function isOmitted(value: unknown): boolean {
	return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

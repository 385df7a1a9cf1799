/**
 * Reading back a request document (Open request, Compare with Previous Request): parsed as VS Code's JSON
 * service reads JSONC (any error fails the test), and what it holds for a value Pi sent (every long string as
 * its folded pieces), to compare the two.
 */
import assert from 'node:assert/strict';
import { parse, type ParseError } from 'jsonc-parser';
import { FOLD_CHARS, foldPieces } from '../../src/engine/live';

export interface ReadRequest {
	readonly system: unknown;
	readonly messages: unknown[];
	readonly payload?: unknown;
}

/** The document parsed as JSONC; fails on any parse error. */
export function parseRequestDocument(text: string): ReadRequest {
	const errors: ParseError[] = [];
	const value = parse(text, errors, { disallowComments: false, allowTrailingComma: false }) as ReadRequest;
	assert.deepEqual(errors, [], 'the document is valid JSONC');
	return value;
}

/** What the document holds for a value Pi sent: every string longer than a line, or holding a line break, as its pieces. */
export function foldedValue(value: unknown): unknown {
	if (typeof value === 'string') {
		return value.length > FOLD_CHARS || (value.includes('\n') && value.length > 1) ? foldPieces(value) : value;
	}
	if (Array.isArray(value)) {
		return value.map(foldedValue);
	}
	return value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, foldedValue(item)])) : value;
}

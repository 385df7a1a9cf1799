/**
 * Checking, after a write, that our lines are in the file as we wrote them. Pure.
 *
 * The input is every byte from the file size we saw just before writing to the current end. Our
 * lines must be there byte for byte, in order, with nothing from another writer before or between
 * them; lines after our last one are someone else's later appends and are fine. Nothing here
 * "repairs" anything: a disturbed write is reported, never rewritten.
 */
import { Pacer, paced, type Steps } from '../steps';

export type WrittenLineStatus =
	/** Present, byte-identical, directly after the previous line we expected. */
	| 'intact'
	/** Present and intact, but lines from another writer came first: its parent is no longer the entry before it. */
	| 'after-foreign-lines'
	/** Its id is in the file but the line differs: merged with or cut by another write. */
	| 'damaged'
	/** Present and intact, but before a line of ours that was written earlier. */
	| 'out-of-order'
	/** Not in the file. */
	| 'missing';

export interface WrittenLineCheck {
	readonly index: number;
	readonly id: string;
	readonly status: WrittenLineStatus;
	/** Foreign lines between the previous expected position and this line (for `after-foreign-lines`). */
	readonly foreignLinesBefore: number;
}

export interface TailVerification {
	/** True when every line is `intact`. */
	readonly ok: boolean;
	readonly lines: readonly WrittenLineCheck[];
	/** Complete lines after our last line (another writer continuing). */
	readonly foreignLinesAfter: number;
	/** True when the tail ends without a newline (someone is mid-write, or a line was cut). */
	readonly endsMidLine: boolean;
}

export interface ExpectedLine {
	readonly id: string;
	/** The line's bytes, final `\n` included. */
	readonly bytes: Uint8Array;
}

const NEWLINE = 0x0a;
const encoder = new TextEncoder();

/** Checks the file's tail against the lines we wrote, in steps: a first flush writes tens of megabytes. */
export function* verifyWrittenTailSteps(tail: Uint8Array, expected: readonly ExpectedLine[]): Steps<TailVerification> {
	const lines = yield* splitLinesSteps(tail);
	const checks: WrittenLineCheck[] = [];
	const pacer = new Pacer();
	let cursor = 0;
	for (let index = 0; index < expected.length; index++) {
		const { id, bytes } = expected[index] as ExpectedLine;
		if (pacer.due(bytes.length)) {
			yield;
		}
		const found = findLine(tail, lines, cursor, lines.length, bytes);
		if (found !== -1) {
			const foreign = found - cursor;
			checks.push({ index, id, status: foreign === 0 ? 'intact' : 'after-foreign-lines', foreignLinesBefore: foreign });
			cursor = found + 1;
		} else if (findLine(tail, lines, 0, cursor, bytes) !== -1) {
			checks.push({ index, id, status: 'out-of-order', foreignLinesBefore: 0 });
		} else {
			const marker = encoder.encode(`"id":"${id}"`);
			const damagedAt = lines.findIndex((line, at) => at >= cursor && indexOf(tail.subarray(line.start, line.end), marker) !== -1);
			checks.push({ index, id, status: damagedAt === -1 ? 'missing' : 'damaged', foreignLinesBefore: 0 });
			// The damaged line still stands where ours was: the next line of ours follows it.
			cursor = damagedAt === -1 ? cursor : damagedAt + 1;
		}
	}
	const complete = lines.filter((line) => line.complete).length;
	return {
		ok: checks.every((check) => check.status === 'intact'),
		lines: checks,
		foreignLinesAfter: Math.max(0, complete - cursor),
		endsMidLine: lines.length > 0 && !(lines.at(-1) as LineSpan).complete,
	};
}

interface LineSpan {
	readonly start: number;
	/** Exclusive; includes the `\n` when `complete`. */
	readonly end: number;
	readonly complete: boolean;
}

function* splitLinesSteps(bytes: Uint8Array): Steps<LineSpan[]> {
	const spans: LineSpan[] = [];
	let start = 0;
	while (start < bytes.length) {
		if (paced(spans.length)) {
			yield;
		}
		const newline = bytes.indexOf(NEWLINE, start);
		if (newline === -1) {
			spans.push({ start, end: bytes.length, complete: false });
			break;
		}
		spans.push({ start, end: newline + 1, complete: true });
		start = newline + 1;
	}
	return spans;
}

function findLine(tail: Uint8Array, lines: readonly LineSpan[], from: number, to: number, wanted: Uint8Array): number {
	for (let at = from; at < to; at++) {
		const span = lines[at] as LineSpan;
		if (span.complete && span.end - span.start === wanted.length && sameBytes(tail, span.start, wanted)) {
			return at;
		}
	}
	return -1;
}

function sameBytes(haystack: Uint8Array, offset: number, wanted: Uint8Array): boolean {
	for (let at = 0; at < wanted.length; at++) {
		if (haystack[offset + at] !== wanted[at]) {
			return false;
		}
	}
	return true;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
	const first = needle[0];
	for (let at = haystack.indexOf(first as number); at !== -1 && at + needle.length <= haystack.length; at = haystack.indexOf(first as number, at + 1)) {
		if (sameBytes(haystack, at, needle)) {
			return at;
		}
	}
	return -1;
}

/**
 * Reads only the first line of a session file (bounded), so listing thousands of sessions stays
 * cheap. Like Pi's reader, blank lines and a byte-order mark before the header are skipped.
 */
import { splitJsonlLines } from '../../engine/session';
import { readRange, type ReadableFile } from './completeLines';

/** The header line must end within this many bytes; real headers are a few hundred bytes. */
export const FIRST_LINE_MAX_BYTES = 64 * 1024;

const NEWLINE = 0x0a;

export type FirstLineRead =
	/** `prefix`: the bytes from offset 0 through the first line's `\n` (leading blank lines included). */
	| { readonly kind: 'line'; readonly text: string; readonly prefix: Buffer }
	/** Nothing but blank lines so far. */
	| { readonly kind: 'empty' }
	/** The first line has no `\n` yet: Pi may be writing it. */
	| { readonly kind: 'incomplete' }
	| { readonly kind: 'too-long' };

/** Most headers fit in this; only a longer one costs a second, larger read. */
const FIRST_READ_BYTES = 4096;

export async function readFirstLine(handle: ReadableFile): Promise<FirstLineRead> {
	const small = await readRange(handle, 0, FIRST_READ_BYTES);
	const first = firstLineOf(small, small.length === FIRST_READ_BYTES);
	if (first.kind !== 'too-long') {
		return first;
	}
	const large = await readRange(handle, 0, FIRST_LINE_MAX_BYTES);
	return firstLineOf(large, large.length === FIRST_LINE_MAX_BYTES);
}

/** The first non-blank, `\n`-terminated line of `chunk` (the start of a file). */
export function firstLineOf(chunk: Buffer, truncated: boolean): FirstLineRead {
	let newline = chunk.indexOf(NEWLINE);
	while (newline !== -1) {
		const prefix = chunk.subarray(0, newline + 1);
		const first = splitJsonlLines(prefix.toString('utf8')).lines[0];
		if (first !== undefined) {
			return { kind: 'line', text: first.text, prefix };
		}
		newline = chunk.indexOf(NEWLINE, newline + 1);
	}
	if (truncated) {
		return { kind: 'too-long' };
	}
	const rest = splitJsonlLines(`${chunk.toString('utf8')}\n`);
	return rest.lines.length === 0 ? { kind: 'empty' } : { kind: 'incomplete' };
}

/** The bytes through the first line (a copy), once that line is complete; used to notice rewrites. */
export async function readFirstLinePrefix(handle: ReadableFile): Promise<Buffer | undefined> {
	const first = await readFirstLine(handle);
	return first.kind === 'line' ? Buffer.from(first.prefix) : undefined;
}

/** True when the file still begins with `prefix` (always true when no prefix is known yet). */
export async function stillStartsWith(handle: ReadableFile, prefix: Buffer | undefined): Promise<boolean> {
	return prefix === undefined || (await readRange(handle, 0, prefix.length)).equals(prefix);
}

/**
 * A session text as the history index's reader hands it over (`RawLine`s, see
 * `src/node/history/fileLines.ts`): long lines as one character per byte, or, with `latin1: false`,
 * every line decoded as UTF-8 (the plain reading the fast one must agree with).
 */
import type { RawLine } from '../../../src/engine/history/rawLine';
import { splitPiece } from '../../../src/node/history/fileLines';

export function rawLinesOf(text: string | Buffer, options: { readonly latin1?: boolean } = {}): RawLine[] {
	const bytes = typeof text === 'string' ? Buffer.from(text) : text;
	const end = bytes.lastIndexOf(0x0a);
	if (end < 0) {
		return [];
	}
	const lines = splitPiece(bytes.subarray(0, end), 0);
	return options.latin1 === false ? lines.map((line) => (line.encoding === 'utf8' ? line : { ...line, text: bytes.toString('utf8', line.offset, line.offset + line.bytes), encoding: 'utf8' })) : lines;
}

/**
 * The complete lines of a session file from an offset, in pieces of about READ_BYTES, as
 * the history index reads them (`RawLine`): a long line that starts with `{` as one character per
 * byte, every other line decoded as UTF-8 as the list's summary decodes it (see
 * `src/engine/history/rawLine.ts` for why both readings give the same values).
 */
import { LATIN1_LINE_BYTES, type RawLine } from '../../engine/history';
import { decodeUtf8 } from '../sessions/completeLines';
import { scanLinesReadingAhead, type ReadAheadFile, type ReadBuffers } from '../sessions/readAheadLines';

const NEWLINE = 0x0a;

/**
 * Bytes read at once. Larger than a parse piece (PARSE_PIECE_BYTES): each line becomes a string of
 * its own, so the size of a read makes no large string, and fewer reads leave the thread waiting less
 * (64 KB reads were a tenth of a cold build, waiting for the file system's thread pool).
 */
const READ_BYTES = 1024 * 1024;
const OPEN_BRACE = 0x7b;

/**
 * Calls `onLines` with the lines of each piece from `offset` to `size` (complete lines only; a line
 * longer than a piece comes whole) and returns the offset after the last complete line. The next
 * piece is read while `onLines` works (read ahead), and the one after once it settles, so only one
 * piece's text is held at a time. `buffers`: those of a reader that reads one file at a time (see
 * `ReadBuffers`).
 */
export async function readLinesFrom(
	handle: ReadAheadFile,
	offset: number,
	size: number,
	onLines: (lines: RawLine[], consumed: number) => Promise<void>,
	signal?: AbortSignal,
	buffers?: ReadBuffers,
): Promise<number> {
	let consumed = offset;
	return scanLinesReadingAhead(handle, offset, size, async (piece) => {
		const lines = splitPiece(piece.subarray(0, piece.length - 1), consumed);
		consumed += piece.length;
		await onLines(lines, consumed);
	}, { chunkBytes: READ_BYTES, signal, buffers });
}

/** The lines of `piece` (complete lines without the last `\n`), which starts at `offset` in the file. */
export function splitPiece(piece: Buffer, offset: number): RawLine[] {
	const lines: RawLine[] = [];
	let start = 0;
	while (start <= piece.length) {
		const newline = piece.indexOf(NEWLINE, start);
		const end = newline === -1 ? piece.length : newline;
		const bytes = end - start;
		const latin1 = bytes >= LATIN1_LINE_BYTES && piece[start] === OPEN_BRACE;
		lines.push({
			text: latin1 ? piece.toString('latin1', start, end) : decodeUtf8(piece.subarray(start, end)),
			encoding: latin1 ? 'latin1' : 'utf8',
			offset: offset + start,
			bytes,
		});
		start = end + 1;
	}
	return lines;
}

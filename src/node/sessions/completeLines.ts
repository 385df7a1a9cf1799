/**
 * Byte-level reads of the complete (`\n`-terminated) lines of a growing file. Pi appends one line
 * per write and a reader may catch a line half-written, so everything after the last `\n` is left
 * for a later read. Splitting at a `\n` byte never cuts a UTF-8 character in two.
 */

/**
 * What these reads need of an open file: `FileHandle` has it, and so has a synchronous file
 * descriptor wrapped for a thread that may block (the session index's extraction worker).
 */
export interface ReadableFile {
	read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ readonly bytesRead: number }>;
}

const NEWLINE = 0x0a;
// ignoreBOM: a byte-order mark is text, as Pi reads the file (`utf8`); a piece starting with one keeps it.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The text of some bytes of a session file, decoded as Pi decodes the whole file. */
export function decodeUtf8(bytes: Uint8Array): string {
	return decoder.decode(bytes);
}
const FIRST_BACKWARD_CHUNK = 4 * 1024;
const BACKWARD_CHUNK = 64 * 1024;

/**
 * Bytes of complete lines decoded and parsed in one go on the extension host's thread, whether a
 * session is opened, summarized for the list or followed as it grows. 64 KB: a piece's text stays
 * a regular heap object. A piece decoded to a string over 128 KB is a large object, which the
 * young-generation collector cannot free: each one alive at a scavenge (the piece being parsed)
 * was kept until the next full collection, tens of MB on a 100 MB session. On the pruned 100 MB
 * bench session, 256 KB pieces gave a CLI peak of 2.90–3.01× the file, an open of 2.5–2.7 s and
 * blocks up to 46 ms; 64 KB pieces 2.74–2.93×, 1.6 s and 21 ms (4 MB pieces held the extension
 * host for over half a second on a loaded machine). The pieces of one model go into one reader
 * (`SessionPieceReader`), so their number costs little.
 */
export const PARSE_PIECE_BYTES = 64 * 1024;

/** Bytes `[start, end)` of the file, fully read (short reads are retried). */
export async function readRange(handle: ReadableFile, start: number, end: number): Promise<Buffer> {
	// Unfilled bytes are never returned (a short file is cut to what was read), so they need no zeroing.
	const buffer = Buffer.allocUnsafe(Math.max(0, end - start));
	let filled = 0;
	while (filled < buffer.length) {
		const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, start + filled);
		if (bytesRead === 0) {
			break; // the file shrank while reading
		}
		filled += bytesRead;
	}
	return filled === buffer.length ? buffer : buffer.subarray(0, filled);
}

/**
 * Offset just after the last `\n` in `[from, size)`, searching backwards chunk by chunk; `from` when
 * that range holds no `\n`.
 */
export async function findCompleteEnd(handle: ReadableFile, from: number, size: number): Promise<number> {
	let end = size;
	// A file Pi wrote ends with its `\n`: a small first read finds it (a thousand 64 KB reads at a start cost the host).
	let chunk = FIRST_BACKWARD_CHUNK;
	while (end > from) {
		const start = Math.max(from, end - chunk);
		chunk = BACKWARD_CHUNK;
		const bytes = await readRange(handle, start, end);
		const newline = bytes.lastIndexOf(NEWLINE);
		if (newline !== -1) {
			return start + newline + 1;
		}
		end = start;
	}
	return from;
}

/**
 * Streams the complete lines from `offset` to the file's current end in pieces of about
 * `chunkBytes`, each piece ending with `\n` (a line longer than a piece is delivered whole).
 * Returns the offset after the last complete line.
 *
 * Every piece is read into one buffer, reused (and grown only for a line longer than it): a piece
 * is a view of it, valid during `onPiece` only. A buffer per piece, and a copy to join the line cut
 * at its end, made hundreds of megabytes of short-lived allocations on a large session, which the
 * process's allocator kept as resident memory.
 */
export async function scanCompleteLines(
	handle: ReadableFile,
	offset: number,
	size: number,
	onPiece: (bytes: Buffer) => unknown,
	chunkBytes = 1024 * 1024,
	signal?: AbortSignal,
): Promise<number> {
	let buffer = Buffer.allocUnsafe(Math.max(1, chunkBytes));
	/** Bytes at the start of the buffer that begin a line not complete yet. */
	let held = 0;
	let position = offset;
	let consumed = offset;
	while (position < size) {
		signal?.throwIfAborted();
		if (held === buffer.length) {
			const bigger = Buffer.allocUnsafe(buffer.length * 2);
			buffer.copy(bigger, 0, 0, held);
			buffer = bigger;
		}
		const { bytesRead } = await handle.read(buffer, held, Math.min(buffer.length - held, size - position), position);
		if (bytesRead === 0) {
			break; // the file shrank while reading
		}
		position += bytesRead;
		const filled = held + bytesRead;
		const newline = buffer.lastIndexOf(NEWLINE, filled - 1);
		if (newline === -1) {
			held = filled; // a long line: keep collecting until its end
			continue;
		}
		const end = newline + 1;
		consumed += end;
		// The next read waits for an async onPiece (the history index writes between pieces).
		await onPiece(buffer.subarray(0, end));
		buffer.copy(buffer, 0, end, filled);
		held = filled - end;
	}
	return consumed;
}

/**
 * The complete lines of a file read one piece ahead, for the session index's reads: the next piece
 * is being read (by the file system's threads) while the caller works on the current one, so a
 * thread that parses every line of a history does not also copy every byte of it out of the page
 * cache. Same pieces' rule as `scanCompleteLines` (each ends with `\n`, a line longer than a piece
 * comes whole, a half-written last line is left for later), through two buffers that take turns.
 */
import type { ReadableFile } from './completeLines';

/**
 * A file these reads can read ahead in: `readAhead` starts a read that overlaps the caller's work
 * (the file system's threads copy the bytes meanwhile), `read` one the caller waits for at once.
 * Without `readAhead`, `read` serves both. A thread that has nothing else to do while it waits
 * (an extraction worker) makes `read` synchronous: waiting for a pool thread to copy the piece, then
 * for its event loop to turn, took longer than the copy itself (0.4 s of a cold build of the bench
 * history, a file's first piece and first line each waited for).
 */
export interface ReadAheadFile extends ReadableFile {
	readAhead?(buffer: Buffer, offset: number, length: number, position: number): Promise<{ readonly bytesRead: number }>;
}

const NEWLINE = 0x0a;

/** Largest buffer `ReadBuffers` keeps (one grown for a 50 MB line is dropped). */
const KEPT_BUFFER_MAX = 8 * 1024 * 1024;

/**
 * The two read buffers of a reader that reads one file at a time (an extraction thread, which
 * reads a thousand files in a build), kept from one file to the next. A buffer of a megabyte or
 * more is an allocation of its own, and freeing one raises glibc's threshold for such allocations
 * (its dynamic mmap threshold): the next ones then come from, and go back to, the thread's arena,
 * which kept 35-45 MB resident through a cold build of the bench history. Kept, they make none of
 * that; one grown for a long line is kept up to KEPT_BUFFER_MAX.
 */
export class ReadBuffers {
	private readonly kept: Buffer[] = [];

	/** A buffer of at least `bytes`: a kept one when one is large enough (it is then no longer kept). */
	take(bytes: number): Buffer {
		const at = this.kept.findIndex((buffer) => buffer.length >= bytes);
		return at === -1 ? Buffer.allocUnsafe(bytes) : this.kept.splice(at, 1)[0] ?? Buffer.allocUnsafe(bytes);
	}

	/** Keeps `buffer` for a later `take` (two at most), unless it is larger than KEPT_BUFFER_MAX. */
	giveBack(buffer: Buffer): void {
		if (buffer.length <= KEPT_BUFFER_MAX && this.kept.length < 2 && !this.kept.includes(buffer)) {
			this.kept.push(buffer);
		}
	}
}

export interface ReadAheadOptions {
	/** Bytes read at a time. */
	readonly chunkBytes: number;
	readonly signal?: AbortSignal | undefined;
	/** Where the buffers come from and go back to; without it, two are made for this file. */
	readonly buffers?: ReadBuffers | undefined;
}

/**
 * Calls `onPiece` with the complete lines from `offset` to `size`, piece by piece (a view of a
 * buffer, valid during `onPiece` only), and returns the offset after the last complete line. While
 * `onPiece` works, the next read is in flight into the other buffer; no read is left in flight when
 * this returns or throws (the file may be closed then, the buffers read through again).
 */
export async function scanLinesReadingAhead(
	handle: ReadAheadFile,
	offset: number,
	size: number,
	onPiece: (bytes: Buffer) => unknown,
	options: ReadAheadOptions,
): Promise<number> {
	const chunk = Math.max(1, options.chunkBytes);
	const buffers = options.buffers ?? new ReadBuffers();
	let current = buffers.take(chunk);
	let spare = buffers.take(chunk);
	/** Bytes at the start of `current` that begin a line not complete yet. */
	let held = 0;
	let position = offset;
	let consumed = offset;
	/** `ahead`: the read runs while a piece is parsed; otherwise it is waited for at once. */
	const readInto = (buffer: Buffer, at: number, ahead = false): Promise<number> | undefined => {
		if (position >= size) {
			return undefined;
		}
		const length = Math.min(buffer.length - at, chunk, size - position);
		const read = ahead && handle.readAhead ? handle.readAhead(buffer, at, length, position) : handle.read(buffer, at, length, position);
		return read.then(({ bytesRead }) => bytesRead);
	};
	options.signal?.throwIfAborted();
	let pending = readInto(current, 0);
	try {
		while (pending) {
			const bytesRead = await pending;
			pending = undefined;
			if (bytesRead === 0) {
				break; // the file shrank while reading
			}
			position += bytesRead;
			const filled = held + bytesRead;
			options.signal?.throwIfAborted();
			const newline = current.lastIndexOf(NEWLINE, filled - 1);
			if (newline === -1) {
				held = filled; // a long line: keep collecting until its end
				current = held < current.length ? current : grown(current, held);
				pending = readInto(current, held);
				continue;
			}
			const end = newline + 1;
			consumed += end;
			const rest = filled - end;
			// The line begun after the piece goes first in the other buffer, the next read after it.
			spare = spare.length >= current.length ? spare : Buffer.allocUnsafe(current.length);
			current.copy(spare, 0, end, filled);
			pending = readInto(spare, rest, true);
			await onPiece(current.subarray(0, end));
			[current, spare] = [spare, current];
			held = rest;
		}
		return consumed;
	} finally {
		await pending?.catch(() => undefined);
		buffers.giveBack(current);
		buffers.giveBack(spare);
	}
}

/** A buffer twice as large holding the first `held` bytes of `buffer`. */
function grown(buffer: Buffer, held: number): Buffer {
	const bigger = Buffer.allocUnsafe(buffer.length * 2);
	buffer.copy(bigger, 0, 0, held);
	return bigger;
}

/**
 * Byte-level reads of the complete (`\n`-terminated) lines of a growing file. Pi appends one line
 * per write and a reader may catch a line half-written, so everything after the last `\n` is left
 * for a later read. Splitting at a `\n` byte never cuts a UTF-8 character in two.
 */
import type { FileHandle } from 'node:fs/promises';

const NEWLINE = 0x0a;
const BACKWARD_CHUNK = 64 * 1024;

/** Bytes `[start, end)` of the file, fully read (short reads are retried). */
export async function readRange(handle: FileHandle, start: number, end: number): Promise<Buffer> {
	const buffer = Buffer.alloc(Math.max(0, end - start));
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
export async function findCompleteEnd(handle: FileHandle, from: number, size: number): Promise<number> {
	let end = size;
	while (end > from) {
		const start = Math.max(from, end - BACKWARD_CHUNK);
		const chunk = await readRange(handle, start, end);
		const newline = chunk.lastIndexOf(NEWLINE);
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
 */
export async function scanCompleteLines(
	handle: FileHandle,
	offset: number,
	size: number,
	onPiece: (bytes: Buffer) => void,
	chunkBytes = 1024 * 1024,
): Promise<number> {
	let consumed = offset;
	let pending: Buffer[] = [];
	let position = offset;
	while (position < size) {
		const chunk = await readRange(handle, position, Math.min(size, position + chunkBytes));
		if (chunk.length === 0) {
			break;
		}
		position += chunk.length;
		const newline = chunk.lastIndexOf(NEWLINE);
		if (newline === -1) {
			pending.push(chunk); // a long line: keep collecting until its end
			continue;
		}
		const piece = Buffer.concat([...pending, chunk.subarray(0, newline + 1)]);
		pending = [chunk.subarray(newline + 1)];
		consumed += piece.length;
		onPiece(piece);
	}
	return consumed;
}

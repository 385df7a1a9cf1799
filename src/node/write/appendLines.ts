/**
 * The write itself: appends complete lines to a session file, one `writeSync` per line on a file
 * descriptor opened with `O_APPEND` (never `O_CREAT`, never `O_TRUNC`: earlier bytes are never
 * touched), then reads back everything from the pre-write size and verifies our lines.
 *
 * Between the last-moment check and the first write there is no `await`, so the only window left
 * is the few microseconds of two system calls. Many lines (a first flush of a large session writes
 * tens of thousands) are written a slice of a few milliseconds at a time, so the extension host is
 * not held for seconds; after each pause the last-moment check runs again (against the size our
 * lines made it) before the next line, so a pause opens no wider window than the first write has.
 *
 * Residual race (documented, not solvable here): Pi takes no lock on session files and appends
 * with `appendFileSync` from its own process. If Pi appends between our last-moment `fstat` and
 * our `write`, its line lands before ours and our first entry's parent is no longer the entry
 * right before it. The read-back below detects exactly that and reports it ("after foreign
 * lines"); it is never repaired by rewriting. Likewise if Pi is attached but idle and undetected,
 * its next append strands our entries on a side branch; `checkWrittenEntriesSteps` finds that later.
 */
import { closeSync, constants, fstatSync, openSync, read, readSync, statSync, writeSync } from 'node:fs';
import { createHash, type Hash } from 'node:crypto';
import { promisify } from 'node:util';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SLICE_MS, type SliceRunner } from '../../work';
import { verifyWrittenTailSteps, type TailVerification } from '../../engine/write';
import { errorMessage } from '../../base/errorMessage';

export interface LineToAppend {
	readonly id: string;
	/** The complete line, final `\n` included. */
	readonly bytes: Buffer;
}

/** What the file must still look like at the moment of writing. */
export interface ExpectedFile {
	readonly size: number;
	readonly ino: number;
	readonly dev: number;
}

/** Test seams for simulating another writer at the worst moments. */
export interface AppendHooks {
	/** Runs right before the last-moment check. */
	readonly beforeLastCheck?: () => void;
	/** Runs right after a successful last-moment check, before the first line (the residual race window). */
	readonly afterLastCheck?: () => void;
	/** Runs after line `index` was written, before the size check that follows it. */
	readonly afterLine?: (index: number) => void;
}

export type AppendOutcome =
	/** The last-moment check failed: nothing was written. */
	| { readonly kind: 'changed'; readonly reason: string }
	| {
		readonly kind: 'appended';
		readonly preSize: number;
		/** How many of our lines were handed to `write` (a prefix of the request). */
		readonly attempted: number;
		/** Why writing stopped before the last line, if it did. */
		readonly stoppedBecause?: string;
		readonly verification: TailVerification;
		/** The file's bytes from `preSize` to the end, as read after writing. */
		readonly tail: Buffer;
		/** Our bytes handed to `write` (the `attempted` lines): where they start, how many, their SHA-256, and the file after them. */
		readonly written: WrittenBytes;
	};

/** What an undo needs to know it removes exactly our bytes and nothing else (`undoAppend.ts`). */
export interface WrittenBytes {
	readonly start: number;
	readonly length: number;
	/** SHA-256 (hex) of the bytes from `start`, `length` of them. */
	readonly sha256: string;
	readonly ino: number;
	readonly dev: number;
	/** The file's modification time right after our last line. */
	readonly mtimeMs: number;
}

const NEWLINE = 0x0a;

export async function appendLines(work: SliceRunner, path: string, expected: ExpectedFile, lines: readonly LineToAppend[], hooks: AppendHooks = {}): Promise<AppendOutcome> {
	for (const [index, line] of lines.entries()) {
		if (line.bytes.length === 0 || line.bytes.indexOf(NEWLINE) !== line.bytes.length - 1) {
			throw new Error(`line ${index + 1} is not one complete \\n-terminated line`);
		}
	}
	// O_RDWR for the read-back; O_APPEND makes every write land at the current end, atomically
	// with respect to other O_APPEND writers on a local file system.
	const fd = openSync(path, constants.O_RDWR | constants.O_APPEND);
	try {
		hooks.beforeLastCheck?.();
		const changed = lastMomentCheck(fd, path, expected);
		if (changed !== undefined) {
			return { kind: 'changed', reason: changed };
		}
		hooks.afterLastCheck?.();
		const digest = createHash('sha256');
		const { attempted, stoppedBecause, length, mtimeMs } = await writeInOrder(fd, path, expected, lines, hooks, digest);
		const tail = await readBack(fd, expected.size, fstatSync(fd).size);
		const verification = await work.sliced(verifyWrittenTailSteps(tail, lines.slice(0, attempted)), undefined, { toTheEnd: true });
		const written = { start: expected.size, length, sha256: digest.digest('hex'), ino: expected.ino, dev: expected.dev, mtimeMs };
		return { kind: 'appended', preSize: expected.size, attempted, stoppedBecause, verification, tail, written };
	} finally {
		closeSync(fd);
	}
}

function lastMomentCheck(fd: number, path: string, expected: ExpectedFile): string | undefined {
	const stats = fstatSync(fd);
	if (stats.ino !== expected.ino || stats.dev !== expected.dev) {
		return 'the file was replaced by another file';
	}
	const atPath = statSync(path);
	if (atPath.ino !== stats.ino || atPath.dev !== stats.dev) {
		return 'the file was replaced by another file';
	}
	if (stats.size !== expected.size) {
		return `the file changed size (${expected.size} → ${stats.size} bytes) since it was checked`;
	}
	if (stats.size > 0 && lastByte(fd, stats.size) !== NEWLINE) {
		return 'the file no longer ends with a newline';
	}
	return undefined;
}

interface WriteProgress {
	readonly attempted: number;
	readonly stoppedBecause?: string;
	/** Bytes handed to `write` (a short write counts what it wrote). */
	readonly length: number;
	/** The file's mtime right after the last write. */
	readonly mtimeMs: number;
}

async function writeInOrder(fd: number, path: string, expected: ExpectedFile, lines: readonly LineToAppend[], hooks: AppendHooks, digest: Hash): Promise<WriteProgress> {
	let expectedSize = expected.size;
	let length = 0;
	const done = (attempted: number, stoppedBecause?: string): WriteProgress => ({ attempted, length, mtimeMs: fstatSync(fd).mtimeMs, ...(stoppedBecause === undefined ? {} : { stoppedBecause }) });
	let sliceStart = performance.now();
	for (const [index, { bytes }] of lines.entries()) {
		if (index > 0 && performance.now() - sliceStart >= SLICE_MS) {
			await nextTurn();
			sliceStart = performance.now();
			const changed = lastMomentCheck(fd, path, { ...expected, size: expectedSize });
			if (changed !== undefined) {
				return done(index, `${changed}: found before line ${index + 1}, after a pause in writing`);
			}
		}
		const written = tryWrite(fd, bytes);
		hooks.afterLine?.(index);
		if (typeof written === 'string') {
			return done(index + 1, `writing line ${index + 1} failed (${written})`);
		}
		digest.update(bytes.subarray(0, written));
		length += written;
		if (written !== bytes.length) {
			return done(index + 1, completeShortWrite(fd, bytes, written, index));
		}
		expectedSize += written;
		const size = fstatSync(fd).size;
		if (size !== expectedSize && index < lines.length - 1) {
			// Another writer appended meanwhile: a further line of ours would chain past its entry and
			// hide it from the active path on resume. Stop here.
			return done(index + 1, `another writer appended ${size - expectedSize} bytes after line ${index + 1}`);
		}
	}
	return done(lines.length);
}

/**
 * A short write on a regular file means a full disk or a size limit. A line left without its
 * `\n` would swallow Pi's next line (experiment 3 in the spec), so the rest of the line is
 * written once more; whether that worked shows in the read-back. No further lines are written.
 */
function completeShortWrite(fd: number, bytes: Buffer, written: number, index: number): string {
	const rest = tryWrite(fd, bytes.subarray(written));
	const outcome = typeof rest === 'string' ? `completing it failed: ${rest}` : `${rest} more bytes written to complete it`;
	return `line ${index + 1} was written only partly (${written} of ${bytes.length} bytes; ${outcome})`;
}

function tryWrite(fd: number, bytes: Buffer): number | string {
	try {
		return writeSync(fd, bytes);
	} catch (error) {
		return errorMessage(error);
	}
}

const readAt = promisify(read);
/** Bytes read back per request: the read runs off the thread, a piece at a time. */
const READ_BACK_PIECE = 1024 * 1024;

/**
 * The bytes from `start` to `end` (or to the end of the file, if it is shorter now), read off the
 * thread: a first flush writes tens of megabytes, and a synchronous read of 30 MB held the host
 * 160 ms on this machine.
 */
async function readBack(fd: number, start: number, end: number): Promise<Buffer> {
	const buffer = Buffer.allocUnsafe(Math.max(0, end - start));
	let done = 0;
	while (done < buffer.length) {
		const { bytesRead } = await readAt(fd, buffer, done, Math.min(READ_BACK_PIECE, buffer.length - done), start + done);
		if (bytesRead === 0) {
			return buffer.subarray(0, done);
		}
		done += bytesRead;
	}
	return buffer;
}

/** The file's last byte, read at the moment of the check (between two system calls, no await). */
function lastByte(fd: number, size: number): number | undefined {
	const byte = Buffer.alloc(1);
	return readSync(fd, byte, 0, 1, size - 1) === 1 ? byte[0] : undefined;
}

/**
 * Undo of one write of ours: truncates the session file back to its length before our lines, and
 * only when that removes exactly our lines. Refused (the file left untouched) unless:
 * - it is still the same file (device and inode, at the path);
 * - it ends exactly where our lines ended: nothing was appended after them (Pi continued the
 *   session, or another writer) and nothing before was cut;
 * - the bytes there are ours, byte for byte (their SHA-256), not just the same size;
 * - no Pi process holds the session (`piHolders.ts`);
 * - and, at the last moment (a synchronous `fstat` right before `ftruncate`, no `await` between),
 *   the file has not changed since those bytes were read.
 *
 * The file is opened read-write without `O_APPEND`, `O_CREAT` or `O_TRUNC`; the only change made is
 * one `ftruncate` to the length it had before our write, so a process killed at any moment leaves
 * either the file with our lines or the file without them, never anything in between.
 *
 * Residual race (as for the writer, `appendLines.ts`): Pi takes no lock, so a Pi that the process
 * check missed could append in the microseconds between the last `fstat` and the `ftruncate`; that
 * line would be cut with ours. `test/support/undoTrials.ts` runs this against a concurrent writer
 * and checks that nothing else is ever lost outside that window.
 */
import { errorMessage } from '../../base/errorMessage';
import { closeSync, constants, fstatSync, fsyncSync, ftruncateSync, openSync, read, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { errorCode } from '../fs/errors';
import type { WrittenBytes } from './appendLines';
import { describeHolders, detectPiHolders } from './piHolders';
import type { PiHolderCheck } from './piHolderTypes';

export type UndoRefusalCode = 'missing' | 'replaced' | 'appended' | 'shrunk' | 'bytes-differ' | 'pi-running' | 'changed' | 'io-error';

export type UndoResult =
	| { readonly kind: 'undone'; readonly removedBytes: number; readonly size: number; readonly notes: readonly string[] }
	| { readonly kind: 'refused'; readonly code: UndoRefusalCode; readonly reason: string; readonly notes: readonly string[] };

export interface UndoOptions {
	/** Default: the platform's process scan. */
	readonly checkPiHolders?: PiHolderCheck;
	/** The session header's `cwd` (a Pi process running there holds the session). */
	readonly cwd?: string;
	/** Test seams: right before the last-moment check, right after it (before the truncation), right after the truncation. */
	readonly hooks?: { readonly beforeLastCheck?: () => void; readonly afterLastCheck?: () => void; readonly afterTruncate?: () => void };
}

const readAt = promisify(read);
const PIECE = 1024 * 1024;

export async function undoAppend(path: string, written: WrittenBytes, options: UndoOptions = {}): Promise<UndoResult> {
	const notes: string[] = [];
	const refuse = (code: UndoRefusalCode, reason: string): UndoResult => ({ kind: 'refused', code, reason, notes });
	let fd: number;
	try {
		fd = openSync(path, constants.O_RDWR);
	} catch (error) {
		return errorCode(error) === 'ENOENT' ? refuse('missing', 'the session file no longer exists') : refuse('io-error', `the session file could not be opened: ${errorMessage(error)}`);
	}
	try {
		const end = written.start + written.length;
		const first = fstatSync(fd);
		if (first.ino !== written.ino || first.dev !== written.dev) {
			return refuse('replaced', 'the session file was replaced by another file since Pi Condense wrote to it');
		}
		if (first.size > end) {
			return refuse('appended', `${(first.size - end).toLocaleString('en')} bytes were appended after Pi Condense's lines (Pi or another program continued the session), and they would be lost`);
		}
		if (first.size < end) {
			return refuse('shrunk', `the file is ${first.size.toLocaleString('en')} bytes, shorter than the ${end.toLocaleString('en')} it had after Pi Condense's write: it was rewritten`);
		}
		const report = await (options.checkPiHolders ?? detectPiHolders)({ sessionPath: path, cwd: options.cwd });
		if (report.note !== undefined) {
			notes.push(report.note);
		}
		if (report.holders.length > 0) {
			return refuse('pi-running', `Pi is running on this session: ${describeHolders(report.holders)}`);
		}
		if (await digestOf(fd, written.start, written.length) !== written.sha256) {
			return refuse('bytes-differ', 'the lines at the end of the file are not the ones Pi Condense wrote (same size, other bytes)');
		}
		options.hooks?.beforeLastCheck?.();
		// The last moment: from here to the truncation there is no await.
		const last = fstatSync(fd);
		const atPath = statSync(path);
		if (last.size !== first.size || last.mtimeMs !== first.mtimeMs || atPath.ino !== last.ino || atPath.dev !== last.dev) {
			return refuse('changed', 'the session file changed while Pi Condense was checking it');
		}
		options.hooks?.afterLastCheck?.();
		ftruncateSync(fd, written.start);
		options.hooks?.afterTruncate?.();
		fsyncSync(fd);
		return { kind: 'undone', removedBytes: written.length, size: fstatSync(fd).size, notes };
	} catch (error) {
		return refuse('io-error', `the session file could not be checked or truncated: ${errorMessage(error)}`);
	} finally {
		closeSync(fd);
	}
}

/** SHA-256 of `length` bytes from `start`, read off the thread a piece at a time. */
async function digestOf(fd: number, start: number, length: number): Promise<string> {
	const hash = createHash('sha256');
	const buffer = Buffer.allocUnsafe(Math.min(PIECE, Math.max(1, length)));
	let done = 0;
	while (done < length) {
		const { bytesRead } = await readAt(fd, buffer, 0, Math.min(buffer.length, length - done), start + done);
		if (bytesRead === 0) {
			break;
		}
		hash.update(buffer.subarray(0, bytesRead));
		done += bytesRead;
	}
	return hash.digest('hex');
}

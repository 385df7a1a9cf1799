/**
 * The current state of a session file as the writer needs it: the model, the byte offset after
 * its last complete line, and the file's size, mtime and identity. A known earlier state is
 * advanced by reading only the bytes appended since (`appendToSession`); a file that was rewritten
 * meanwhile (shrunk, replaced, or a different first line: Pi migrates v1/v2 files and truncates
 * files with a broken header when it opens them) is reported instead of being patched over.
 */
import { closeSync, fstatSync, openSync, readSync, constants, type Stats } from 'node:fs';
import { appendToSession, parseSession, type SessionModel } from '../../engine/session';

/** A model and the file offset it was read up to (just after its last `\n`). */
export interface SessionBase {
	readonly model: SessionModel;
	readonly consumedBytes: number;
}

export interface SessionFileState extends SessionBase {
	readonly size: number;
	readonly mtimeMs: number;
	readonly ino: number;
	readonly dev: number;
	/** Complete lines read on top of the given base (0 for a cold read). */
	readonly linesCaughtUp: number;
}

export type SessionFileRead =
	| { readonly kind: 'ok'; readonly state: SessionFileState }
	| { readonly kind: 'missing' }
	| { readonly kind: 'rewritten'; readonly reason: string };

const NEWLINE = 0x0a;
const HEADER_PROBE_BYTES = 64 * 1024;

/** Reads the file whole, or (with `base`) only what was appended after `base.consumedBytes`. */
export function readSessionFileState(path: string, base?: SessionBase): SessionFileRead {
	let fd: number;
	try {
		fd = openSync(path, constants.O_RDONLY);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			return { kind: 'missing' };
		}
		throw error;
	}
	try {
		const stats = fstatSync(fd);
		if (base === undefined) {
			return { kind: 'ok', state: coldRead(fd, stats) };
		}
		const rewritten = rewriteReason(fd, stats.size, base);
		if (rewritten !== undefined) {
			return { kind: 'rewritten', reason: rewritten };
		}
		const unread = readRange(fd, base.consumedBytes, stats.size);
		const model = appendToSession(base.model, unread.toString('utf8'));
		if (model === undefined) {
			// Only a file without a header or a v1/v2 file cannot be advanced; read it whole.
			return { kind: 'ok', state: coldRead(fd, stats) };
		}
		const consumed = unread.lastIndexOf(NEWLINE) + 1;
		return {
			kind: 'ok',
			state: {
				...identity(stats),
				model,
				consumedBytes: base.consumedBytes + consumed,
				linesCaughtUp: model.lineCount - base.model.lineCount,
			},
		};
	} finally {
		closeSync(fd);
	}
}

function coldRead(fd: number, stats: Stats): SessionFileState {
	const bytes = readRange(fd, 0, stats.size);
	return {
		...identity(stats),
		model: parseSession(bytes.toString('utf8')),
		consumedBytes: bytes.lastIndexOf(NEWLINE) + 1,
		linesCaughtUp: 0,
	};
}

function identity(stats: Stats): Pick<SessionFileState, 'size' | 'mtimeMs' | 'ino' | 'dev'> {
	return { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino, dev: stats.dev };
}

/** Why the bytes under `base` may no longer be what it read; undefined when they still can be. */
function rewriteReason(fd: number, size: number, base: SessionBase): string | undefined {
	if (size < base.consumedBytes) {
		return `the file shrank from at least ${base.consumedBytes} to ${size} bytes`;
	}
	if (base.consumedBytes > 0 && readRange(fd, base.consumedBytes - 1, base.consumedBytes)[0] !== NEWLINE) {
		return 'the byte before the last read position is no longer a line end';
	}
	const header = base.model.header;
	if (header === undefined) {
		return undefined;
	}
	const probe = readRange(fd, 0, Math.min(size, HEADER_PROBE_BYTES));
	const end = probe.indexOf(NEWLINE);
	const firstLine = probe.subarray(0, end === -1 ? probe.length : end).toString('utf8');
	let current: { id?: unknown; version?: unknown; cwd?: unknown } | undefined;
	try {
		current = JSON.parse(firstLine.trim()) as typeof current;
	} catch {
		current = undefined;
	}
	if (current?.id !== header.id || current.version !== header.version || current.cwd !== header.cwd) {
		return 'the first line (session header) changed';
	}
	return undefined;
}

export function readRange(fd: number, start: number, end: number): Buffer {
	const buffer = Buffer.alloc(Math.max(0, end - start));
	let done = 0;
	while (done < buffer.length) {
		const read = readSync(fd, buffer, done, buffer.length - done, start + done);
		if (read === 0) {
			return buffer.subarray(0, done);
		}
		done += read;
	}
	return buffer;
}

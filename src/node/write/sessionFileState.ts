/**
 * The current state of a session file as the writer needs it: the model, the byte offset after
 * its last complete line, and the file's size, mtime and identity. A known earlier state is
 * advanced by reading only the bytes appended since; a file that was rewritten meanwhile (shrunk,
 * replaced, or a different first line: Pi migrates v1/v2 files and truncates files with a broken
 * header when it opens them) is reported instead of being patched over.
 *
 * Both reads run in slices (the writer runs on the extension host's thread): a catch-up after Pi
 * worked on the session can be megabytes, and a cold read is the whole file.
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { SessionModel } from '../../engine/session';
import { appendedModelSteps } from '../sessions/appendedLines';
import { readRange } from '../sessions/completeLines';
import type { SliceRunner } from '../../work';
import { readSessionModelFrom } from '../store/readSessionModel';

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
export async function readSessionFileState(work: SliceRunner, path: string, base?: SessionBase): Promise<SessionFileRead> {
	let handle: FileHandle;
	try {
		handle = await open(path, 'r');
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			return { kind: 'missing' };
		}
		throw error;
	}
	try {
		const stats = await handle.stat();
		if (base === undefined) {
			return { kind: 'ok', state: await coldRead(work, handle, stats) };
		}
		const rewritten = await rewriteReason(handle, stats.size, base);
		if (rewritten !== undefined) {
			return { kind: 'rewritten', reason: rewritten };
		}
		const unread = await readRange(handle, base.consumedBytes, stats.size);
		const model = await work.sliced(appendedModelSteps(base.model, unread));
		if (model === undefined) {
			// Only a file without a header or a v1/v2 file cannot be advanced; read it whole.
			return { kind: 'ok', state: await coldRead(work, handle, stats) };
		}
		return {
			kind: 'ok',
			state: {
				...identity(stats),
				model,
				consumedBytes: base.consumedBytes + unread.lastIndexOf(NEWLINE) + 1,
				linesCaughtUp: model.lineCount - base.model.lineCount,
			},
		};
	} finally {
		await handle.close();
	}
}

/** The file up to the size `stats` saw, so that the identity and the bytes read agree. */
async function coldRead(work: SliceRunner, handle: FileHandle, stats: Stats): Promise<SessionFileState> {
	const { model, consumed } = await readSessionModelFrom(work, handle, stats.size);
	return { ...identity(stats), model, consumedBytes: consumed, linesCaughtUp: 0 };
}

function identity(stats: Stats): Pick<SessionFileState, 'size' | 'mtimeMs' | 'ino' | 'dev'> {
	return { size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino, dev: stats.dev };
}

/** Why the bytes under `base` may no longer be what it read; undefined when they still can be. */
async function rewriteReason(handle: FileHandle, size: number, base: SessionBase): Promise<string | undefined> {
	if (size < base.consumedBytes) {
		return `the file shrank from at least ${base.consumedBytes} to ${size} bytes`;
	}
	if (base.consumedBytes > 0 && (await readRange(handle, base.consumedBytes - 1, base.consumedBytes))[0] !== NEWLINE) {
		return 'the byte before the last read position is no longer a line end';
	}
	const header = base.model.header;
	if (header === undefined) {
		return undefined;
	}
	const probe = await readRange(handle, 0, Math.min(size, HEADER_PROBE_BYTES));
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

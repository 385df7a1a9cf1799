/**
 * What the watcher remembers about one session file, and how it turns a change of the file into
 * one event: the bytes of newly completed lines (`appended`), or `rewritten` when the file was
 * replaced, shrank or got a different first line (Pi rewrites v1/v2 files when it opens them).
 * Only bytes after the last consumed offset are read; a trailing partial line waits for its `\n`.
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { errorCode } from '../fs/errors';
import { READ_WITHOUT_BLOCKING } from '../fs/openFlags';
import { findCompleteEnd, readRange } from './completeLines';
import { readFirstLinePrefix, stillStartsWith } from './firstLine';

export type RewriteReason = 'replaced' | 'shrank' | 'first-line-changed';

export type SessionFileEvent =
	/** A new session file. The watcher reports appends after `consumed`; read `[0, consumed)` yourself. */
	| { readonly kind: 'added'; readonly path: string; readonly size: number; readonly consumed: number }
	/** Newly completed lines: `bytes` are the file's bytes at `[offset, offset + bytes.length)`, ending in `\n`. */
	| { readonly kind: 'appended'; readonly path: string; readonly offset: number; readonly bytes: Buffer; readonly size: number }
	/** The content changed other than by appending: re-read `[0, consumed)`. */
	| { readonly kind: 'rewritten'; readonly path: string; readonly size: number; readonly consumed: number; readonly reason: RewriteReason }
	| { readonly kind: 'removed'; readonly path: string };

export interface FileTail {
	readonly ino: number;
	/** Offset after the last complete line already reported. */
	readonly consumed: number;
	/** `[consumed, scanned)` is known to hold no `\n` (a partial line), so it is not searched again. */
	readonly scanned: number;
	/** The file's bytes through its first line, once that line is complete. */
	readonly firstLinePrefix: Buffer | undefined;
	/**
	 * Instead of the prefix, the SHA-256 (hex) of it, as the session index keeps it: a file the index
	 * already knows is tracked from its row without being opened; its first check reads the prefix.
	 */
	readonly firstLineHash?: string;
}

/** What the session index knows of a file as it was when it last read it (`StoredSession`). */
export interface KnownFile {
	readonly ino: number;
	readonly size: number;
	readonly mtimeMs: number;
	/** Offset after its last complete line the index read. */
	readonly consumed: number;
	readonly firstLineHash: string | undefined;
}

/**
 * The tail of a file the index read completely and that has not changed since (same inode, size and
 * time): what `snapshotTail` would find, without opening it. Undefined when the file is not so.
 */
export function knownTail(known: KnownFile | undefined, now: { readonly ino: number; readonly size: number; readonly mtimeMs: number }): FileTail | undefined {
	if (known?.firstLineHash === undefined || known.ino !== now.ino || known.size !== now.size || known.consumed !== now.size || known.mtimeMs !== now.mtimeMs) {
		return undefined;
	}
	return { ino: known.ino, consumed: known.consumed, scanned: known.consumed, firstLinePrefix: undefined, firstLineHash: known.firstLineHash };
}

/** The current state of a file, with everything up to its last `\n` counted as consumed; undefined when gone. */
export async function snapshotTail(path: string): Promise<{ tail: FileTail; size: number } | undefined> {
	return withFile(path, async (handle, { size, ino }) => {
		return { tail: await tailAt(handle, ino, size), size };
	});
}

/** Compares the file with `tail`; returns the new tail and the event to report, if any. Undefined when gone. */
export async function advanceTail(path: string, tail: FileTail): Promise<{ tail: FileTail; event?: SessionFileEvent } | undefined> {
	return withFile(path, async (handle, { size, ino }) => {
		const reason = ino !== tail.ino ? 'replaced'
			: size < tail.consumed ? 'shrank'
				: await firstLineKept(handle, tail) ? undefined : 'first-line-changed';
		if (reason !== undefined) {
			const fresh = await tailAt(handle, ino, size);
			return { tail: fresh, event: { kind: 'rewritten', path, size, consumed: fresh.consumed, reason } };
		}
		if (size <= tail.scanned) {
			return { tail };
		}
		const fresh = await readRange(handle, tail.scanned, size);
		const newline = fresh.lastIndexOf(0x0a);
		if (newline === -1) {
			return { tail: { ...tail, scanned: tail.scanned + fresh.length } };
		}
		const end = tail.scanned + newline + 1;
		const earlier = tail.scanned > tail.consumed ? await readRange(handle, tail.consumed, tail.scanned) : undefined;
		const bytes = earlier ? Buffer.concat([earlier, fresh.subarray(0, newline + 1)]) : fresh.subarray(0, newline + 1);
		const firstLinePrefix = tail.firstLinePrefix ?? await readFirstLinePrefix(handle);
		return {
			tail: { ino, consumed: end, scanned: end, firstLinePrefix },
			event: { kind: 'appended', path, offset: tail.consumed, bytes, size },
		};
	});
}

/** Whether the file still begins with the first line the tail knows (by its bytes, or by their hash). */
async function firstLineKept(handle: FileHandle, tail: FileTail): Promise<boolean> {
	if (tail.firstLinePrefix === undefined && tail.firstLineHash !== undefined) {
		const prefix = await readFirstLinePrefix(handle);
		return prefix !== undefined && createHash('sha256').update(prefix).digest('hex') === tail.firstLineHash;
	}
	return stillStartsWith(handle, tail.firstLinePrefix);
}

async function tailAt(handle: FileHandle, ino: number, size: number): Promise<FileTail> {
	const consumed = await findCompleteEnd(handle, 0, size);
	return { ino, consumed, scanned: consumed, firstLinePrefix: await readFirstLinePrefix(handle) };
}

/**
 * Runs `use` on the regular file at `path` (through a link, as the listings follow it); undefined when
 * there is none: gone, or something else named `*.jsonl` (a folder, a FIFO: opened without blocking).
 */
async function withFile<T>(path: string, use: (handle: FileHandle, stats: { readonly size: number; readonly ino: number }) => Promise<T>): Promise<T | undefined> {
	let handle: FileHandle;
	try {
		handle = await open(path, READ_WITHOUT_BLOCKING);
	} catch (error) {
		if (errorCode(error) === 'ENOENT') {
			return undefined;
		}
		throw error;
	}
	try {
		const stats = await handle.stat();
		return stats.isFile() ? await use(handle, stats) : undefined;
	} finally {
		await handle.close();
	}
}

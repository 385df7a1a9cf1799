/**
 * Lists a folder in slices that let the thread go between them: a project folder of Pi's may hold a
 * thousand session files, and the watcher's first listing of a history runs on the extension host.
 * `fs.opendir` hands over its entries a few dozen at a time; each slice is passed on, then the event
 * loop turns before the next one is taken.
 */
import type { Dirent } from 'node:fs';
import { opendir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { errorCode } from '../fs/errors';
import { WorkStopped } from '../../work';

/** Entries handed over at once; the loop turns after each slice. */
const ENTRIES_PER_SLICE = 64;

export interface FolderEntry {
	readonly name: string;
	readonly path: string;
	/**
	 * What the entry is, through a symbolic link: a linked project folder or session file counts as
	 * such, as Pi 1.6.0's listing (`SessionManager.listAll`) follows both. `file` is a regular file only:
	 * a FIFO or a device named `*.jsonl` is `other` (opening a FIFO would wait for a writer forever).
	 */
	readonly kind: 'file' | 'folder' | 'other';
}

/** A name Pi gives its session files (Pi lists every `*.jsonl` name). */
export function isSessionFileName(name: string): boolean {
	return name.endsWith('.jsonl');
}

/**
 * Hands `folder`'s entries to `take`, slice by slice (each slice is taken, and its promise waited
 * for, before the next is read). False when the folder is not there (or is no folder); other
 * failures are thrown. Stops with `WorkStopped` once `signal` is aborted.
 */
export async function listFolder(folder: string, signal: AbortSignal, take: (entries: readonly FolderEntry[]) => void | Promise<void>): Promise<boolean> {
	let dir;
	try {
		dir = await opendir(folder, { bufferSize: ENTRIES_PER_SLICE });
	} catch (error) {
		if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') {
			return false;
		}
		throw error;
	}
	try {
		let slice: FolderEntry[] = [];
		for (;;) {
			const dirent = await dir.read();
			if (dirent !== null) {
				slice.push(await entryOf(folder, dirent));
			}
			if (slice.length > 0 && (dirent === null || slice.length >= ENTRIES_PER_SLICE)) {
				await take(slice);
				slice = [];
				await nextTurn();
			}
			if (signal.aborted) {
				throw new WorkStopped(`listing ${folder} stopped`);
			}
			if (dirent === null) {
				return true;
			}
		}
	} finally {
		await dir.close().catch(() => undefined);
	}
}

/**
 * What one entry of `folder` is, following a symbolic link (one `stat`, for links only). The one rule
 * for the watcher's listings and the listings of the discovery and the session index, so that they
 * agree on what is a project folder and what is a session file.
 */
export async function entryOf(folder: string, dirent: Dirent): Promise<FolderEntry> {
	const path = join(folder, dirent.name);
	if (dirent.isSymbolicLink()) {
		const target = await stat(path).catch(() => undefined);
		return { name: dirent.name, path, kind: target?.isDirectory() ? 'folder' : target?.isFile() ? 'file' : 'other' };
	}
	return { name: dirent.name, path, kind: dirent.isDirectory() ? 'folder' : dirent.isFile() ? 'file' : 'other' };
}

/**
 * Lists every Pi session file under the session roots, with size, mtime and header, reading only
 * the first line of each file. Files that are not sessions (no valid header) are reported, never
 * thrown, as are folders that could not be read.
 */
import { open, readdir } from 'node:fs/promises';
import { parseHeaderLine, type SessionHeader } from '../../engine/session';
import { mapLimited } from '../../engine/flush';
import type { SessionRoot } from './sessionLocations';
import { errorMessage } from '../../base/errorMessage';
import { errorCode } from '../fs/errors';
import { READ_WITHOUT_BLOCKING } from '../fs/openFlags';
import { readFirstLine } from './firstLine';
import { entryOf, isSessionFileName, type FolderEntry } from './folderListing';

export interface SessionFileStat {
	readonly path: string;
	readonly root: SessionRoot;
	readonly size: number;
	readonly mtimeMs: number;
}

export interface SessionFile extends SessionFileStat {
	/** From line 1. Its `cwd` is the project; never trust the lossy folder name. */
	readonly header: SessionHeader;
}

export interface UnlistedSessionFile extends SessionFileStat {
	readonly reason: string;
}

export interface SearchedFolder {
	readonly root: SessionRoot;
	readonly exists: boolean;
	readonly fileCount: number;
	/** Set when the folder (or one of its project folders) could not be read. */
	readonly error?: string;
}

export interface SessionDiscovery {
	readonly sessions: readonly SessionFile[];
	readonly unlisted: readonly UnlistedSessionFile[];
	readonly searched: readonly SearchedFolder[];
}

const OPEN_FILES_AT_ONCE = 16;

export async function discoverSessions(roots: readonly SessionRoot[]): Promise<SessionDiscovery> {
	const searched: SearchedFolder[] = [];
	const candidates: { path: string; root: SessionRoot }[] = [];
	for (const root of roots) {
		const listing = await listSessionPaths(root);
		searched.push({ root, exists: listing.exists, fileCount: listing.paths.length, ...(listing.error ? { error: listing.error } : {}) });
		candidates.push(...listing.paths.map((path) => ({ path, root })));
	}
	return { ...await readSessionFiles(candidates), searched };
}

/** Stat and header of each file (a few at a time): the sessions, and the files that are not (with why). */
export async function readSessionFiles(files: readonly { readonly path: string; readonly root: SessionRoot }[]): Promise<Omit<SessionDiscovery, 'searched'>> {
	const results = await mapLimited(files, OPEN_FILES_AT_ONCE, ({ path, root }) => readSessionFile(path, root));
	const sessions: SessionFile[] = [];
	const unlisted: UnlistedSessionFile[] = [];
	for (const result of results) {
		if (result === undefined) {
			continue;
		}
		if ('header' in result) {
			sessions.push(result);
		} else {
			unlisted.push(result);
		}
	}
	return { sessions, unlisted };
}

/** Stat and header of one file; undefined when it vanished or is not a regular file. */
export async function readSessionFile(path: string, root: SessionRoot): Promise<SessionFile | UnlistedSessionFile | undefined> {
	let handle;
	try {
		// Not blocking: a FIFO at the path (named when it was listed) would hold a thread until a writer came; it is then no regular file.
		handle = await open(path, READ_WITHOUT_BLOCKING);
	} catch (error) {
		return errorCode(error) === 'ENOENT' ? undefined : { path, root, size: 0, mtimeMs: 0, reason: errorMessage(error) };
	}
	try {
		const stats = await handle.stat();
		if (!stats.isFile()) {
			return undefined;
		}
		const base = { path, root, size: stats.size, mtimeMs: stats.mtimeMs };
		const first = await readFirstLine(handle);
		if (first.kind !== 'line') {
			return { ...base, reason: FIRST_LINE_REASONS[first.kind] };
		}
		const parsed = parseHeaderLine(first.text);
		return parsed.ok ? { ...base, header: parsed.header } : { ...base, reason: parsed.reason };
	} catch (error) {
		return { path, root, size: 0, mtimeMs: 0, reason: errorMessage(error) };
	} finally {
		await handle.close();
	}
}

const FIRST_LINE_REASONS = {
	'empty': 'the file is empty',
	'incomplete': 'line 1 is not complete yet (no newline)',
	'too-long': 'line 1 is longer than 64 KB',
} as const;

/**
 * The `*.jsonl` paths of one session folder (without opening them); a missing folder is `exists: false`.
 * Symbolic links are followed as Pi 1.6.0's `SessionManager.listAll` follows them: a linked project
 * folder is listed, a linked session file is one (wherever they point: Pi reads them too). Only regular
 * files are session files and one level of project folders is read, as the watcher does (`entryOf`).
 */
export async function listSessionPaths(root: SessionRoot): Promise<{ exists: boolean; paths: string[]; error?: string }> {
	let entries: FolderEntry[];
	try {
		entries = await folderEntries(root.path);
	} catch (error) {
		const missing = errorCode(error) === 'ENOENT';
		return { exists: !missing, paths: [], ...(missing ? {} : { error: errorMessage(error) }) };
	}
	if (root.layout === 'flat') {
		return { exists: true, paths: sessionPaths(entries) };
	}
	const paths: string[] = [];
	const errors: string[] = [];
	for (const project of entries.filter((entry) => entry.kind === 'folder')) {
		try {
			paths.push(...sessionPaths(await folderEntries(project.path)));
		} catch (error) {
			errors.push(`${project.path}: ${errorMessage(error)}`);
		}
	}
	return { exists: true, paths, ...(errors.length > 0 ? { error: errors.join('; ') } : {}) };
}

async function folderEntries(folder: string): Promise<FolderEntry[]> {
	const dirents = await readdir(folder, { withFileTypes: true });
	return Promise.all(dirents.map((dirent) => entryOf(folder, dirent)));
}

function sessionPaths(entries: readonly FolderEntry[]): string[] {
	return entries.filter((entry) => entry.kind === 'file' && isSessionFileName(entry.name)).map((entry) => entry.path);
}

/**
 * The index's rows of every session file as last seen, in a small file beside the index
 * (`<index>.list.json`, private like it): a warm `pi-condense list` reads it and a `stat` per file
 * instead of opening the database, which on Node 20 compiles SQLite's WebAssembly first (most of
 * what a warm list cost there). It is a cache of the index that checks itself against the files:
 * it is used only while exactly the same files are in the same session folders with the same inode,
 * size and modification time as when it was written (what the index itself checks before reading
 * a file again); otherwise the index is opened and brought up to date, and the file written again.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { mapLimited } from '../../engine/flush';
import type { SessionSummary } from '../../engine/session';
import type { SessionHeader } from '../../engine/session';
import type { SessionRoot } from '../sessions/sessionLocations';
import { listSessionPaths } from '../sessions/discoverSessions';
import { isUnchanged } from './fileIndexer';
import type { StoredSession } from './indexRows';

/** Bump when what the file holds changes: an older one is not read. */
const SNAPSHOT_VERSION = 1;

/** `stat`s in flight at once. */
const STATS_AT_ONCE = 32;

interface SnapshotFile {
	readonly version: number;
	readonly roots: readonly string[];
	readonly rows: readonly SnapshotRow[];
}

/** A row as stored: [path, root, ino, size, mtimeMs, unlisted, header, summary]. */
type SnapshotRow = readonly [string, string, number, number, number, string | null, SessionHeader | null, SessionSummary];

export function listSnapshotPath(indexPath: string): string {
	return `${indexPath}.list.json`;
}

/** The rows of every file under `roots` when the snapshot still describes exactly those files; undefined otherwise. */
export async function readListSnapshot(indexPath: string, roots: readonly SessionRoot[]): Promise<StoredSession[] | undefined> {
	let file: SnapshotFile;
	try {
		file = JSON.parse(await readFile(listSnapshotPath(indexPath), 'utf8')) as SnapshotFile;
	} catch {
		return undefined;
	}
	if (file.version !== SNAPSHOT_VERSION || !sameList(file.roots, roots.map((root) => root.path)) || !Array.isArray(file.rows)) {
		return undefined;
	}
	const read = file.rows.map(storedOf);
	const rows = read.filter((row): row is StoredSession => row !== undefined);
	if (rows.length !== read.length) {
		return undefined;
	}
	const byPath = new Map(rows.map((row) => [row.path, row]));
	const paths: string[] = [];
	for (const root of roots) {
		const listing = await listSessionPaths(root);
		if (listing.error !== undefined) {
			return undefined;
		}
		for (const path of listing.paths) {
			if (byPath.get(path)?.root !== root.path) {
				return undefined;
			}
			paths.push(path);
		}
	}
	if (paths.length !== rows.length) {
		return undefined;
	}
	const stats = await mapLimited(paths, STATS_AT_ONCE, (path) => stat(path).catch(() => undefined));
	const unchanged = paths.every((path, i) => {
		const row = byPath.get(path);
		const fileStats: Stats | undefined = stats[i];
		return row !== undefined && fileStats !== undefined && isUnchanged(row, row.root, fileStats);
	});
	return unchanged ? rows : undefined;
}

/** Writes the rows of every file under `roots` (a complete, current set: right after a refresh that read every file it had to). */
export function writeListSnapshot(indexPath: string, roots: readonly SessionRoot[], rows: readonly StoredSession[]): void {
	const file: SnapshotFile = {
		version: SNAPSHOT_VERSION,
		roots: roots.map((root) => root.path),
		rows: rows.map((row): SnapshotRow => [row.path, row.root, row.ino, row.size, row.mtimeMs, row.unlisted ?? null, row.header ?? null, row.summary]),
	};
	const path = listSnapshotPath(indexPath);
	const temporary = `${path}.${process.pid}.tmp`;
	try {
		// Private like the index (it holds first messages); written whole, then put in place.
		writeFileSync(temporary, JSON.stringify(file), { mode: 0o600 });
		renameSync(temporary, path);
	} catch {
		rmSync(temporary, { force: true });
	}
}

export function removeListSnapshot(indexPath: string): void {
	rmSync(listSnapshotPath(indexPath), { force: true });
}

/** A row as read back, in the shape the index gives it; undefined when it is not one (a damaged file). */
function storedOf(row: SnapshotRow): StoredSession | undefined {
	if (!Array.isArray(row) || row.length !== 8) {
		return undefined;
	}
	const [path, root, ino, size, mtimeMs, unlisted, header, summary] = row;
	if (typeof path !== 'string' || typeof root !== 'string' || typeof ino !== 'number' || typeof size !== 'number' || typeof mtimeMs !== 'number' || typeof summary !== 'object' || summary === null) {
		return undefined;
	}
	return {
		path, root, ino, size, mtimeMs, consumed: size, firstLineHash: undefined, unlisted: unlisted ?? undefined, header: header ?? undefined,
		summary: {
			header: summary.header,
			headerTimestamp: summary.headerTimestamp,
			name: summary.name,
			firstUserMessage: summary.firstUserMessage,
			entryCount: summary.entryCount,
			messageCount: summary.messageCount,
			lastActivity: summary.lastActivity,
			invalidLineCount: summary.invalidLineCount,
			lineCount: summary.lineCount,
		},
	};
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
	return Array.isArray(a) && a.length === b.length && a.every((item, i) => item === b[i]);
}

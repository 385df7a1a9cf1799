/**
 * The session index's rows as the store's: a stored session's header and file facts, and its summary
 * when the index read the file to its end, put into `SessionRows` without reading the file.
 */
import { sessionModifiedTime } from '../../engine/session';
import type { StoredSession } from '../history/indexRows';
import type { SessionFile, UnlistedSessionFile } from '../sessions/discoverSessions';
import type { SessionRoot } from '../sessions/sessionLocations';
import type { SessionFileSummary } from '../sessions/summaryCache';
import type { SessionRows } from './sessionRows';

/**
 * Puts the index's sessions under `roots` into `rows`, unless a row already knows as much (the watcher
 * may have gone further); returns whether the list changed and the files that are not sessions.
 */
export function applyStoredRows(stored: readonly StoredSession[], rows: SessionRows, roots: readonly SessionRoot[]): { readonly changed: boolean; readonly unlisted: UnlistedSessionFile[] } {
	const rootOf = new Map(roots.map((root) => [root.path, root]));
	let changed = false;
	const unlisted: UnlistedSessionFile[] = [];
	for (const row of stored) {
		const root = rootOf.get(row.root);
		if (!root) {
			continue;
		}
		if (!row.header || row.unlisted !== undefined) {
			unlisted.push({ path: row.path, root, size: row.size, mtimeMs: row.mtimeMs, reason: row.unlisted ?? 'no session header' });
			continue;
		}
		const complete = row.size >= 0;
		const file: SessionFile = { path: row.path, root, size: complete ? row.size : row.consumed, mtimeMs: row.mtimeMs, header: row.header };
		const known = rows.get(row.path);
		if (known && known.summary && (!complete || known.summary.size >= row.size)) {
			continue;
		}
		rows.upsertFile(file);
		if (complete) {
			rows.update(row.path, { summary: summaryOf(row) });
		}
		changed = true;
	}
	return { changed, unlisted };
}

/** A stored row as the list's summary of the file. */
export function summaryOf(row: StoredSession): SessionFileSummary {
	return { path: row.path, size: row.size, mtimeMs: row.mtimeMs, summary: row.summary, modified: sessionModifiedTime(row.summary, row.mtimeMs), scannedBytes: 0 };
}

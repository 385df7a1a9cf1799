/**
 * The command line's catalog of sessions (`list`, `--latest`, id prefixes, `search`) from the
 * session index: opened, brought up to date (on a warm index a `stat` per file; the first time every
 * file is read, with progress on stderr when it is a terminal; Ctrl+C keeps what was read, and the
 * next run goes on from there), then read as the rows the list shows. When nothing changed since,
 * `list` reads those rows from the index's list snapshot (`listSnapshot.ts`) without opening it.
 * Without an index (`--no-index`, or one that cannot be used, which is said once), the session
 * files are read as before.
 */
import { homedir } from 'node:os';
import { buildSessionList, type ListedSession } from '../engine/views';
import { sessionModifiedTime } from '../engine/session';
import { formatBytes } from '../base/numberFormat';
import { resolveSessionLocations, type SessionLocations } from '../node/sessions/sessionLocations';
import type { SessionFile } from '../node/sessions/discoverSessions';
import { HistoryIndex, type RefreshProgress } from '../node/history/historyIndex';
import { IndexOffError, type IndexNotice } from '../node/history/indexDatabase';
import type { StoredSession } from '../node/history/indexRows';
import { readListSnapshot, writeListSnapshot } from '../node/history/listSnapshot';
import { readCatalog, type Catalog } from './sessionCatalog';
import type { IndexChoice } from './indexOptions';
import { cliWork } from './cliWork';
import { cliAgentDir } from './cliAgentDir';

/** Session bytes per index write (one commit each): 8 MB, their rows held until it (peak RSS as with 16, the build as fast). */
const CLI_BATCH_BYTES = 8 * 1024 * 1024;

export interface IndexedCatalog {
	readonly catalog: Catalog;
	/** The index, open and up to date; undefined without one. Close it when done. */
	readonly index: HistoryIndex | undefined;
	readonly locations: SessionLocations;
}

/**
 * The sessions for `list`, `--latest` and id prefixes: from the index's list snapshot when every
 * file is as it was (a `stat` each, no database opened), else from the index brought up to date,
 * else (no index) from the files.
 */
export async function readSessionCatalog(agentDirOption: string | undefined, cwd: string, choice: IndexChoice, now = Date.now()): Promise<Catalog> {
	if (choice.kind === 'file') {
		const locations = await sessionLocations(agentDirOption, cwd);
		const rows = await readListSnapshot(choice.path, locations.roots);
		if (rows) {
			return catalogOf(rows, locations, cwd, now);
		}
	}
	const read = await readIndexedCatalog(agentDirOption, cwd, choice, now);
	await read.index?.close();
	return read.catalog;
}

/** The index (for search), open and up to date, with the sessions it lists; without one, the sessions from the files. */
export async function readIndexedCatalog(agentDirOption: string | undefined, cwd: string, choice: IndexChoice, now = Date.now()): Promise<IndexedCatalog> {
	const locations = await sessionLocations(agentDirOption, cwd);
	const index = choice.kind === 'off' ? undefined : await openIndex(choice.path, choice.ownFolder);
	if (!index) {
		return { catalog: await readCatalog(agentDirOption, cwd, now), index: undefined, locations };
	}
	try {
		const complete = await refreshWithProgress(index, locations);
		const rows = await index.stored(locations.roots);
		if (complete) {
			writeListSnapshot(index.path, locations.roots, rows);
		}
		return { catalog: catalogOf(rows, locations, cwd, now), index, locations };
	} catch (error) {
		await index.close();
		if (!(error instanceof IndexOffError)) {
			throw error;
		}
		return { catalog: await readCatalog(agentDirOption, cwd, now), index: undefined, locations };
	}
}

async function sessionLocations(agentDirOption: string | undefined, cwd: string): Promise<SessionLocations> {
	const agentDir = cliAgentDir(agentDirOption);
	return resolveSessionLocations({ agentDir, env: process.env, homedir: homedir(), workspaceFolders: [cwd], trustProjectSettings: true });
}

/** The list's rows of the stored files: sessions with a header, under the folders searched. */
function catalogOf(rows: readonly StoredSession[], locations: SessionLocations, cwd: string, now: number): Catalog {
	const rootOf = new Map(locations.roots.map((root) => [root.path, root]));
	const listed: ListedSession[] = [];
	const files = new Map<string, SessionFile>();
	for (const row of rows) {
		const root = rootOf.get(row.root);
		if (!row.header || row.unlisted !== undefined || !root) {
			continue;
		}
		const file: SessionFile = { path: row.path, root, size: row.size, mtimeMs: row.mtimeMs, header: row.header };
		files.set(row.path, file);
		listed.push({ file, summary: { summary: row.summary, modified: sessionModifiedTime(row.summary, row.mtimeMs) }, reclaim: undefined });
	}
	const projects = buildSessionList(listed, { workspaceFolders: [cwd], now, homedir: homedir() });
	return { projects, files, cwd };
}

async function openIndex(path: string, ownFolder: boolean): Promise<HistoryIndex | undefined> {
	return HistoryIndex.open({
		path,
		ownFolder,
		distDir: __dirname,
		slices: cliWork,
		notify: (notice) => process.stderr.write(`pi-condense: ${indexNoticeText(notice)}\n`),
		batchBytes: CLI_BATCH_BYTES,
	});
}

/** Brings the index up to date; Ctrl+C stops it with what was read kept (exit 130). True when every file could be read. */
async function refreshWithProgress(index: HistoryIndex, locations: SessionLocations): Promise<boolean> {
	const controller = new AbortController();
	const interrupt = (): void => controller.abort();
	process.once('SIGINT', interrupt);
	const progress = process.stderr.isTTY ? new ProgressLine() : undefined;
	try {
		const result = await index.refresh(locations.roots, { signal: controller.signal, onProgress: (state) => progress?.show(state) });
		for (const problem of result.problems) {
			process.stderr.write(`pi-condense: warning: ${problem}\n`);
		}
		return result.problems.length === 0;
	} catch (error) {
		if (controller.signal.aborted) {
			progress?.done();
			process.stderr.write('pi-condense: interrupted: the session index keeps what was read; run again to go on\n');
			process.exit(130);
		}
		throw error;
	} finally {
		progress?.done();
		process.off('SIGINT', interrupt);
	}
}

/** One line on stderr, rewritten at most every 100 ms, only once a build has read something. */
class ProgressLine {
	private shownAt = 0;
	private shown = false;

	show(state: RefreshProgress): void {
		const now = Date.now();
		if (state.bytesRead === 0 || now - this.shownAt < 100) {
			return;
		}
		this.shownAt = now;
		this.shown = true;
		process.stderr.write(`\r\x1b[Kpi-condense: indexing sessions: ${state.filesDone}/${state.filesTotal} files, ${formatBytes(state.bytesRead)} read (Ctrl+C stops; the next run goes on)`);
	}

	done(): void {
		if (this.shown) {
			process.stderr.write('\r\x1b[K');
			this.shown = false;
		}
	}
}

/** What the user is told, once, about the index. */
export function indexNoticeText(notice: IndexNotice): string {
	if (notice.kind === 'rebuilt') {
		return `the session index could not be used (${notice.detail}); it was moved to ${notice.movedTo} and is built again`;
	}
	switch (notice.reason) {
		case 'newer':
			return `${notice.detail}: sessions are read without it (update Pi Condense, or give another file with --index)`;
		case 'unwritable':
			return `the session index cannot be written (${notice.detail}): sessions are read without it (--index PATH picks another place, --no-index turns it off)`;
		case 'locked':
			return `the session index is busy in another process (${notice.detail}): sessions are read without it this time`;
		case 'failed':
			return `the session index failed (${notice.detail}): sessions are read without it`;
	}
}

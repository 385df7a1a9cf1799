/**
 * The index of every session Pi keeps (see `docs/session-index.md`): what the session list shows of
 * each session, its model usage, pi-condense's events and the texts search looks in, kept in one
 * SQLite file per user and brought up to date incrementally.
 *
 * Made to be driven from a shared thread: every long operation takes an AbortSignal, a build reads
 * and extracts its files in worker threads (`extractionPool.ts`; small updates run the engine's pass
 * here, in slices) and writes in bounded batches, so the thread is never held long; a stopped build
 * keeps what it wrote and goes on from there next time (`refresh` again). `first` puts the sessions
 * someone is looking at before the others, and `fileChanged` is the watcher's call for one file.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { mapLimited } from '../../engine/flush';
import { listSessionPaths } from '../sessions/discoverSessions';
import type { SessionRoot } from '../sessions/sessionLocations';
import type { SliceRunner } from '../../work';
import { inThreadReader, isGone, type StepRunner } from './fileExtraction';
import { FileWrites, type FileOutcome } from './fileIndexer';
import { IndexDatabase, IndexRebuiltError, type IndexNotice } from './indexDatabase';
import { refreshFiles, STATS_AT_ONCE, type RefreshOptions, type RefreshResult } from './indexRefresh';
import { removeListSnapshot } from './listSnapshot';
import { deleteSession, sessionsOf, type StoredRow } from './indexRows';
import { IndexWriter } from './indexWriter';
import { NEW_FILE_PRAGMAS } from './indexSchema';
import { giveBackFreePages } from './indexRows';
import type { SqlEngineChoice } from './sqlite/openSqlite';
import { inList } from './sqlite/sqlDatabase';
import type { IndexedSession, StoredAccounts } from '../../engine/costs';
import { readCostHistory, type DigestedHistory } from './costHistory';
import { accountsDueOf, indexedSessionsOf, storeAccountsOf, type AccountsDue } from './historyCosts';

export interface HistoryIndexOptions {
	/** The index file (`defaultIndexPath()` or one the user chose). */
	readonly path: string;
	/** True for the default place: its folder is ours and made private. */
	readonly ownFolder: boolean;
	readonly engine?: SqlEngineChoice;
	/** The folder of the WebAssembly SQLite chunk (`dist/`). */
	readonly distDir: string;
	/** Told once of anything the user should know: the index was rebuilt, or is off. */
	readonly notify: (notice: IndexNotice) => void;
	/** Runs the engine's passes of small updates on this thread, in slices: the owner's scope. */
	readonly slices: SliceRunner;
	/** Session bytes covered by one write (default 2 MB: each write holds the thread while it runs). */
	readonly batchBytes?: number;
	/** Extraction threads a build may start (default DEFAULT_EXTRACTION_THREADS; 0: extract on this thread). */
	readonly extractionThreads?: number;
	/** Bytes a refresh reads on this thread before it starts extraction threads (default 4 MB). */
	readonly threadsFromBytes?: number;
}

export type { RefreshOptions, RefreshProgress, RefreshResult } from './indexRefresh';

const DEFAULT_BATCH_BYTES = 2 * 1024 * 1024;

export class HistoryIndex {
	private readonly run: StepRunner;

	private constructor(private readonly database: IndexDatabase, private readonly options: HistoryIndexOptions) {
		this.run = (steps, signal) => options.slices.sliced(steps, signal);
	}

	/** Opens the index; undefined when it is off (told through `notify`): go on without it. */
	static async open(options: HistoryIndexOptions): Promise<HistoryIndex | undefined> {
		const database = await IndexDatabase.open({ ...options, engine: options.engine ?? 'auto' });
		return database && new HistoryIndex(database, options);
	}

	get path(): string {
		return this.database.path;
	}

	/** `node:sqlite` or `wasm`. */
	get engine(): string {
		return this.database.engine;
	}

	/** The database itself, for the queries of `historyQueries.ts`. */
	get db(): IndexDatabase {
		return this.database;
	}

	/**
	 * Brings the index up to date with every session file under `roots`: new and changed files are
	 * read (only their new lines when they grew), files that are gone leave it. Throws IndexOffError
	 * when the index cannot be used (said once through `notify`), and the abort reason when stopped:
	 * what was read until then is kept.
	 */
	async refresh(roots: readonly SessionRoot[], options: RefreshOptions = {}): Promise<RefreshResult> {
		// One index serves every folder and process: a relative path would name other files from elsewhere.
		const relative = roots.find((root) => !isAbsolute(root.path));
		if (relative !== undefined) {
			throw new Error(`the session index takes absolute session folders, not ${relative.path}`);
		}
		try {
			return await this.refreshOnce(roots, options);
		} catch (error) {
			if (!(error instanceof IndexRebuiltError)) {
				throw error;
			}
			return this.refreshOnce(roots, options); // the new file is empty: everything is read again
		}
	}

	/** The watcher's call: `path` (under `root`) grew, changed or went away. */
	async fileChanged(path: string, root: SessionRoot, signal?: AbortSignal): Promise<FileOutcome> {
		const writer = new IndexWriter(this.database, Number.POSITIVE_INFINITY);
		const stored = await this.database.read((db) => sessionsOf(db, 'WHERE path = ?', [path])[0]);
		const writes = new FileWrites({ path, root: root.path, stored }, writer);
		await inThreadReader(this.run)(writes.job, writes, signal);
		await writer.flush();
		return writes.outcome ?? 'unchanged';
	}

	/** The watcher's call: `path` was deleted. */
	async fileRemoved(path: string): Promise<void> {
		await this.database.write((db) => deleteSession(db, path));
	}

	/** What the index has of the files under `roots` (listed and unlisted). */
	stored(roots: readonly SessionRoot[]): Promise<StoredRow[]> {
		const paths = roots.map((root) => root.path);
		return this.database.read((db) => sessionsOf(db, `WHERE root IN ${inList(paths)}`, paths));
	}

	/**
	 * Every listed session under `roots` with all its requests, resets and stored prune accounts (`historyCosts.ts`):
	 * the rows the cost digests are worked out from, and what the tests check `costHistory`'s report against.
	 */
	costSessions(roots: readonly SessionRoot[]): Promise<IndexedSession[]> {
		const paths = roots.map((root) => root.path);
		return this.database.read((db) => indexedSessionsOf(db, paths));
	}

	/**
	 * What the history's costs need of every listed session under `roots` (`costHistory.ts`): the
	 * sessions' cost digests and the copies among their requests. Hand it to `digestedHistorySteps`.
	 */
	costHistory(roots: readonly SessionRoot[], signal?: AbortSignal): Promise<DigestedHistory> {
		return readCostHistory(this.database, this.run, roots.map((root) => root.path), signal);
	}

	/** The pruned sessions under `roots` whose prunes need accounting again (`basisOf`: the release and settings a project renders with). */
	accountsDue(roots: readonly SessionRoot[], basisOf: (project: string) => string | undefined): Promise<AccountsDue[]> {
		const paths = roots.map((root) => root.path);
		return this.database.read((db) => accountsDueOf(db, paths, basisOf));
	}

	/** Keeps a session's prune accounts, worked out from its first `consumed` bytes with `basis`. */
	storeAccounts(path: string, consumed: number, basis: string, accounts: StoredAccounts): Promise<boolean> {
		return this.database.write((db) => storeAccountsOf(db, path, consumed, basis, accounts));
	}

	/**
	 * Forgets every session ("Clear the Session Index"): the rows go, the file gives their space
	 * back, and the list snapshot beside it is deleted. The file itself stays, so windows and command lines that have it open see an empty index
	 * (and build it again when they refresh) instead of writing into a deleted file.
	 */
	async clear(): Promise<void> {
		await this.database.write((db) => {
			db.exec("INSERT INTO docs_text (docs_text) VALUES ('delete-all')");
			db.exec('DELETE FROM docs; DELETE FROM usage; DELETE FROM events; DELETE FROM costs_accounts; DELETE FROM costs_digests; DELETE FROM costs_copies; DELETE FROM models; DELETE FROM sessions;');
		});
		// VACUUM also sets a file made before the free pages were given back (auto_vacuum) to give them back from now on.
		await this.database.use((db) => db.exec(`${NEW_FILE_PRAGMAS} VACUUM`));
		removeListSnapshot(this.path);
	}

	close(): Promise<void> {
		return this.database.close();
	}

	private async refreshOnce(roots: readonly SessionRoot[], options: RefreshOptions): Promise<RefreshResult> {
		const files: { path: string; root: string }[] = [];
		const problems: string[] = [];
		for (const root of roots) {
			const listing = await listSessionPaths(root);
			if (listing.error) {
				problems.push(`${root.path}: ${listing.error}`);
			}
			files.push(...listing.paths.map((path) => ({ path, root: root.path })));
		}
		const stored = new Map((await this.stored(roots)).map((row) => [row.path, row]));
		const firstPaths = new Set(options.first ?? []);
		files.sort((a, b) => Number(firstPaths.has(b.path)) - Number(firstPaths.has(a.path)));
		const writer = new IndexWriter(this.database, this.options.batchBytes ?? DEFAULT_BATCH_BYTES);
		const { distDir, extractionThreads, threadsFromBytes } = this.options;
		const listedHere = await refreshFiles(files, stored, { writer, run: this.run, distDir, extractionThreads, threadsFromBytes }, options, problems);
		const goneElsewhere = await this.forgetGoneElsewhere(roots);
		const removed = (listedHere.outcomes.get('removed') ?? 0) + goneElsewhere;
		if (listedHere.bytesRead > 0 || removed > 0) {
			await this.database.write(giveBackFreePages);
		}
		return { ...listedHere, outcomes: new Map([...listedHere.outcomes, ['removed', removed]]) };
	}

	/**
	 * The rows of session folders this refresh does not list (another agent directory, a `sessionDir`
	 * no longer set) stay for whoever lists them, unless their file is gone: the index keeps no text of
	 * a deleted session. A `stat` per such row (usually none). Returns how many left.
	 */
	private async forgetGoneElsewhere(roots: readonly SessionRoot[]): Promise<number> {
		const paths = roots.map((root) => root.path);
		const elsewhere = await this.database.read((db) => sessionsOf(db, `WHERE root NOT IN ${inList(paths)}`, paths).map((row) => row.path));
		const found = await mapLimited(elsewhere, STATS_AT_ONCE, (path) => stat(path).then(() => undefined, (error: unknown) => error));
		const gone = elsewhere.filter((_, i) => isGone(found[i]));
		return gone.length === 0 ? 0 : this.database.write((db) => gone.filter((path) => deleteSession(db, path)).length);
	}
}

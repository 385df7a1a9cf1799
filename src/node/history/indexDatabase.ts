/**
 * The index file, opened and kept usable: every use holds the cross-process lock (`indexLock.ts`);
 * a file that is not a database, is damaged, or has an older or foreign layout is moved aside and
 * a new one started; a file of a newer layout (a newer Pi Condense in another window) is left alone
 * and the index is off here; a file that cannot be written (read-only or full disk) turns the index
 * off. Each of these is said once, through `notify`, and none throws past this class except as
 * `IndexOffError` (the caller goes on without the index) or `IndexRebuiltError` (the caller starts
 * its work again on the new, empty file).
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { errorMessage } from '../../base/errorMessage';
import { IndexLock, IndexLockError } from './indexLock';
import { preparePrivateFile } from './indexLocation';
import { APPLICATION_ID, CONNECTION_PRAGMAS, CREATE_SCHEMA, NEW_FILE_PRAGMAS, SCHEMA_VERSION } from './indexSchema';
import { openSqlite, type SqlEngineChoice } from './sqlite/openSqlite';
import { sqlFailureOf, type SqlDatabase } from './sqlite/sqlDatabase';

export type IndexNotice =
	/** The file could not be used and was moved aside to `movedTo`; a new index is being built. */
	| { readonly kind: 'rebuilt'; readonly reason: 'corrupt' | 'older' | 'foreign'; readonly path: string; readonly movedTo: string; readonly detail: string }
	/** No index in this process: everything is read from the session files, as without one. */
	| { readonly kind: 'off'; readonly reason: 'unwritable' | 'newer' | 'locked' | 'failed'; readonly path: string; readonly detail: string };

export class IndexOffError extends Error {}
export class IndexRebuiltError extends Error {}

export interface IndexDatabaseOptions {
	readonly path: string;
	readonly engine: SqlEngineChoice;
	/** The folder of the WebAssembly SQLite chunk (`dist/`). */
	readonly distDir: string;
	/** True for the default place (its folder is ours and is made private); false for a path the user chose. */
	readonly ownFolder: boolean;
	readonly notify: (notice: IndexNotice) => void;
}

type Checked = { readonly ok: true } | { readonly ok: false; readonly notice: IndexNotice };

export class IndexDatabase {
	private db: SqlDatabase | undefined;
	private off: IndexNotice | undefined;

	private constructor(private readonly options: IndexDatabaseOptions, private readonly lock: IndexLock) {}

	/** Opens (creating, or rebuilding, as needed) the index; undefined when it is off (said through `notify`). */
	static async open(options: IndexDatabaseOptions): Promise<IndexDatabase | undefined> {
		const index = new IndexDatabase(options, new IndexLock(options.path));
		try {
			// The folder first: the lock is a folder inside it.
			preparePrivateFile(options.path, dirname(options.path), options.ownFolder);
			await index.lock.run(() => index.connect());
			return index;
		} catch (error) {
			index.turnOff(error);
			await index.lock.close();
			return undefined;
		}
	}

	get path(): string {
		return this.options.path;
	}

	get engine(): string {
		return this.db?.engine ?? 'none';
	}

	/**
	 * Reads in one transaction with the lock held: one consistent view, and SQLite's own lock taken
	 * once (the WebAssembly engine's is a folder made and removed per lock: 5-40 ms on a busy disk).
	 */
	read<T>(work: (db: SqlDatabase) => T): Promise<T> {
		return this.use((db) => inTransaction(db, 'BEGIN', work));
	}

	/** Writes in one transaction with the lock held: all of it or nothing. */
	write<T>(work: (db: SqlDatabase) => T): Promise<T> {
		return this.use((db) => inTransaction(db, 'BEGIN IMMEDIATE', work));
	}

	/** Waits for the uses queued, then closes (no lock: outside a transaction neither engine holds one). */
	async close(): Promise<void> {
		await this.lock.close();
		this.disconnect();
	}

	/** Runs `work` with the lock held, outside a transaction (VACUUM). */
	async use<T>(work: (db: SqlDatabase) => T): Promise<T> {
		if (this.off) {
			throw new IndexOffError(this.off.detail);
		}
		try {
			return await this.lock.run(() => {
				const db = this.db ?? this.connect();
				db.beforeUse();
				try {
					return work(db);
				} catch (error) {
					if (sqlFailureOf(error) === 'corrupt') {
						this.startOver('corrupt', errorMessage(error));
						throw new IndexRebuiltError(`the session index was damaged and is being rebuilt (${errorMessage(error)})`);
					}
					throw error;
				}
			});
		} catch (error) {
			if (error instanceof IndexRebuiltError || !(error instanceof IndexLockError || sqlFailureOf(error) === 'unwritable')) {
				throw error;
			}
			throw new IndexOffError(this.turnOff(error).detail, { cause: error });
		}
	}

	/** Opens the file and checks it is an index of this layout (creating the tables in an empty one); with the lock held. */
	private connect(): SqlDatabase {
		const { path } = this.options;
		preparePrivateFile(path, dirname(path), this.options.ownFolder);
		const db = openSqlite(path, this.options);
		let checked: Checked;
		try {
			db.beforeUse();
			checked = this.check(db);
		} catch (error) {
			closeQuietly(db);
			if (sqlFailureOf(error) !== 'corrupt') {
				throw error;
			}
			checked = { ok: false, notice: this.movedAside('corrupt', errorMessage(error)) };
			return this.startFresh(checked.notice);
		}
		if (checked.ok) {
			this.db = db;
			return db;
		}
		closeQuietly(db);
		if (checked.notice.kind === 'off') {
			this.off = checked.notice;
			this.options.notify(checked.notice);
			throw new IndexOffError(checked.notice.detail);
		}
		return this.startFresh(checked.notice);
	}

	/** After the file was moved aside: says so, and opens a new one. */
	private startFresh(notice: IndexNotice): SqlDatabase {
		const { path } = this.options;
		this.options.notify(notice);
		preparePrivateFile(path, dirname(path), this.options.ownFolder);
		const db = openSqlite(path, this.options);
		db.beforeUse();
		const again = this.check(db);
		if (!again.ok) {
			closeQuietly(db);
			throw new Error(`a new session index at ${path} could not be created: ${again.notice.detail}`);
		}
		this.db = db;
		return db;
	}

	private check(db: SqlDatabase): Checked {
		db.exec(CONNECTION_PRAGMAS);
		const applicationId = Number(db.prepare('PRAGMA application_id').get()?.['application_id'] ?? 0);
		const version = Number(db.prepare('PRAGMA user_version').get()?.['user_version'] ?? 0);
		const tables = Number(db.prepare('SELECT count(*) AS n FROM sqlite_master').get()?.['n'] ?? 0);
		if (applicationId === 0 && version === 0 && tables === 0) {
			db.exec(NEW_FILE_PRAGMAS);
			db.exec('BEGIN IMMEDIATE');
			db.exec(`${CREATE_SCHEMA}\nPRAGMA application_id = ${APPLICATION_ID};\nPRAGMA user_version = ${SCHEMA_VERSION};`);
			db.exec('COMMIT');
			return { ok: true };
		}
		if (applicationId !== APPLICATION_ID) {
			return { ok: false, notice: this.movedAside('foreign', `the file is not a Pi Condense session index (application id ${applicationId})`) };
		}
		if (version > SCHEMA_VERSION) {
			return { ok: false, notice: { kind: 'off', reason: 'newer', path: this.options.path, detail: `the session index at ${this.options.path} was written by a newer Pi Condense (layout ${version}; this one reads ${SCHEMA_VERSION})` } };
		}
		if (version < SCHEMA_VERSION) {
			return { ok: false, notice: this.movedAside('older', `the session index has an older layout (${version}; now ${SCHEMA_VERSION})`) };
		}
		return { ok: true };
	}

	/** Moves the file (and a journal of it) to `<path>.<reason>.bak`, replacing an earlier one; the connection is closed by the caller. */
	private movedAside(reason: 'corrupt' | 'older' | 'foreign', detail: string): IndexNotice {
		const { path } = this.options;
		const movedTo = `${path}.${reason}.bak`;
		for (const suffix of ['', '-journal']) {
			rmSync(`${movedTo}${suffix}`, { force: true });
			if (existsSync(`${path}${suffix}`)) {
				renameSync(`${path}${suffix}`, `${movedTo}${suffix}`);
			}
		}
		return { kind: 'rebuilt', reason, path, movedTo, detail };
	}

	/** A corruption found while in use: close, move aside, start a new file now (the lock is held). */
	private startOver(reason: 'corrupt', detail: string): void {
		this.disconnect();
		this.options.notify(this.movedAside(reason, detail));
		this.connect();
	}

	private disconnect(): void {
		const db = this.db;
		this.db = undefined;
		if (db) {
			closeQuietly(db);
		}
	}

	private turnOff(error: unknown): IndexNotice {
		if (this.off) {
			return this.off;
		}
		this.disconnect();
		const reason = error instanceof IndexLockError ? 'locked' : sqlFailureOf(error) === 'unwritable' ? 'unwritable' : 'failed';
		const off: IndexNotice = { kind: 'off', reason, path: this.options.path, detail: `${this.options.path}: ${errorMessage(error)}` };
		this.off = off;
		this.options.notify(off);
		return off;
	}
}

/** Closing a damaged file may fail: it is moved aside or left as it is. */
function closeQuietly(db: SqlDatabase): void {
	try {
		db.close();
	} catch {
		// nothing more to do with it
	}
}

function inTransaction<T>(db: SqlDatabase, begin: string, work: (db: SqlDatabase) => T): T {
	db.exec(begin);
	try {
		const result = work(db);
		db.exec('COMMIT');
		return result;
	} catch (error) {
		try {
			db.exec('ROLLBACK');
		} catch {
			// the failure already ended the transaction
		}
		throw error;
	}
}

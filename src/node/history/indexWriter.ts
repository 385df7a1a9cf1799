/**
 * Gathers the index writes of several files into one transaction: a commit costs a lock, a journal
 * and its sync, so a build of a thousand small sessions commits a few hundred times, not a thousand.
 * A batch is written once it covers `batchBytes` of session lines (or `flush` is called), so how
 * long one write holds the thread is bounded too: about 10 ms per MB of lines with `node:sqlite`,
 * several times that with the WebAssembly engine (see `docs/performance.md`).
 */
import type { IndexDatabase } from './indexDatabase';
import type { SqlDatabase } from './sqlite/sqlDatabase';

export class IndexWriter {
	private pending: ((db: SqlDatabase) => void)[] = [];
	/** Per file, the write that records how far its lines were read: only the last one of a batch runs, after the others. */
	private closing = new Map<string, (db: SqlDatabase) => void>();
	private pendingBytes = 0;

	constructor(private readonly database: IndexDatabase, private readonly batchBytes: number) {}

	/**
	 * Queues a write that covers `bytes` of session lines, and the file's `close` write (its row as of
	 * these lines), which replaces the one queued before for the same `key`; writes the batch when due.
	 */
	async add(write: ((db: SqlDatabase) => void) | undefined, bytes: number, key?: string, close?: (db: SqlDatabase) => void): Promise<void> {
		if (write) {
			this.pending.push(write);
		}
		if (key !== undefined && close) {
			this.closing.delete(key);
			this.closing.set(key, close);
		}
		this.pendingBytes += bytes;
		if (this.pendingBytes >= this.batchBytes) {
			await this.flush();
		}
	}

	/** Writes what is queued, in one transaction. */
	async flush(): Promise<void> {
		const writes = [...this.pending, ...this.closing.values()];
		this.discard();
		if (writes.length === 0) {
			return;
		}
		await this.database.write((db) => {
			for (const write of writes) {
				write(db);
			}
		});
	}

	/** Drops what is queued (the index was rebuilt under it). */
	discard(): void {
		this.pending = [];
		this.closing = new Map();
		this.pendingBytes = 0;
	}
}

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
	private pendingBytes = 0;

	constructor(private readonly database: IndexDatabase, private readonly batchBytes: number) {}

	/** Queues a write that covers `bytes` of session lines; writes the batch when it is due. */
	async add(write: (db: SqlDatabase) => void, bytes: number): Promise<void> {
		this.pending.push(write);
		this.pendingBytes += bytes;
		if (this.pendingBytes >= this.batchBytes) {
			await this.flush();
		}
	}

	/** Writes what is queued, in one transaction. */
	async flush(): Promise<void> {
		const writes = this.pending;
		if (writes.length === 0) {
			return;
		}
		this.pending = [];
		this.pendingBytes = 0;
		await this.database.write((db) => {
			for (const write of writes) {
				write(db);
			}
		});
	}

	/** Drops what is queued (the index was rebuilt under it). */
	discard(): void {
		this.pending = [];
		this.pendingBytes = 0;
	}
}

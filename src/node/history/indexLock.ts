/**
 * The one lock every use of the index file takes, across processes: VS Code windows on Node 24
 * (`node:sqlite`) and on Node 20 (SQLite in WebAssembly) and the command line share one file, and
 * the two engines do not see each other's locks. `node:sqlite` locks with POSIX advisory locks
 * (`fcntl`); the WebAssembly build's file layer with a `<db>.lock` folder it creates for any lock.
 * Neither sees the other, so SQLite's own locking cannot keep a `node:sqlite` reader from reading
 * pages a WebAssembly writer is changing. This lock, a `<db>.mutex` folder taken with
 * proper-lockfile (atomic `mkdir`, refreshed while held, taken over once stale, so a killed holder
 * blocks others for at most STALE_MS), is held around every transaction, reads included. Each hold
 * is short (one slice of work), so windows and the command line take turns.
 *
 * Within a process, uses are queued: proper-lockfile refuses a second lock of the same folder. The
 * lock is kept while more uses are queued and let go when the queue is empty.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { lock } from 'proper-lockfile';
import { errorMessage } from '../../base/errorMessage';
import { errorCode } from '../fs/errors';

/** A holder that stops refreshing its lock (killed) loses it after this long. proper-lockfile refreshes every STALE_MS / 2. */
const STALE_MS = 5000;

/** How long a use waits for another process's hold before it gives up: longer than STALE_MS, so a killed holder's lock is taken over first. */
const WAIT_MS = 16_000;

/** The pause between two tries: from FIRST_PAUSE_MS, PAUSE_GROWTH times longer each time, at most MAX_PAUSE_MS. */
const FIRST_PAUSE_MS = 2;
const PAUSE_GROWTH = 1.3;
const MAX_PAUSE_MS = 40;

export class IndexLockError extends Error {}

export class IndexLock {
	private tail: Promise<unknown> = Promise.resolve();
	private queued = 0;
	private release: (() => Promise<void>) | undefined;
	private compromised: string | undefined;

	/** `dbPath`: the index file; the lock is the folder `<dbPath>.mutex`. */
	constructor(private readonly dbPath: string) {}

	/** Runs `work` (synchronous SQLite work) with the lock held; uses of one process run one at a time, in order. */
	run<T>(work: () => T): Promise<T> {
		this.queued++;
		const result = this.tail.then(async () => {
			try {
				await this.acquire();
				return work();
			} finally {
				this.queued--;
				if (this.queued === 0) {
					await this.letGo();
				}
			}
		});
		this.tail = result.catch(() => undefined);
		return result;
	}

	/** Waits for the uses queued so far and lets the lock go. */
	async close(): Promise<void> {
		await this.tail;
		await this.letGo();
	}

	/** The folder the lock is made in, gone: said as such, not as a failure to lock. */
	private folderGone(): IndexLockError | undefined {
		return existsSync(dirname(this.dbPath)) ? undefined : new IndexLockError(`the folder of the session index is gone: ${dirname(this.dbPath)}`);
	}

	private async acquire(): Promise<void> {
		if (this.release && this.compromised === undefined) {
			return;
		}
		await this.letGo();
		this.compromised = undefined;
		// Tried here, not with proper-lockfile's retries: those retry any failure, so a folder deleted
		// while a use waits (Clear the Session Index, a test's temporary folder) was tried for all of WAIT_MS.
		const deadline = performance.now() + WAIT_MS;
		for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(MAX_PAUSE_MS, pause * PAUSE_GROWTH)) {
			const gone = this.folderGone();
			if (gone) {
				throw gone;
			}
			try {
				this.release = await lock(this.dbPath, {
					lockfilePath: `${this.dbPath}.mutex`,
					realpath: false,
					stale: STALE_MS,
					retries: 0,
					// proper-lockfile throws from a timer by default: a lock lost while held (the machine slept past STALE_MS) is noted and retaken at the next use.
					onCompromised: (error) => {
						this.compromised = errorMessage(error);
					},
				});
				return;
			} catch (error) {
				if (errorCode(error) !== 'ELOCKED') {
					throw this.folderGone() ?? new IndexLockError(`the session index could not be locked (${errorMessage(error)})`, { cause: error });
				}
				if (performance.now() >= deadline) {
					throw new IndexLockError(`the session index is locked by another process (${errorMessage(error)})`, { cause: error });
				}
			}
			await new Promise((resolve) => setTimeout(resolve, pause));
		}
	}

	private async letGo(): Promise<void> {
		const release = this.release;
		this.release = undefined;
		if (release) {
			await release().catch(() => undefined);
		}
	}
}

/**
 * Watches Pi's session folders and reports typed events per session file: `added`, `appended`
 * (only the bytes of newly completed lines), `rewritten` and `removed`. It never creates a folder
 * and never re-reads a whole file on append.
 *
 * Folders are watched, not files (`sessionFolders.ts`): one `fs.watch` for the sessions root and one
 * per project folder, and a file named by an event is checked from its last consumed offset. chokidar,
 * which the watcher used before, set up an `lstat` and a watch per session file; at a warm start of a
 * thousand sessions that held the extension host for 55-90 ms at a time. A root that does not exist
 * yet is waited for through its nearest ancestor (`folderWaiter.ts`).
 *
 * A line caught half-written is kept (by offset) until its `\n` arrives. Bursts of changes to one file
 * are coalesced by a short delay; no bytes are lost, because every check reads from the last consumed
 * offset to the current end.
 */
import { dirname, resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import { advanceTail, knownTail, snapshotTail, type FileTail, type KnownFile, type SessionFileEvent } from './fileTail';
import { FileTaskQueue } from './fileTaskQueue';
import { folderIdentity, waitForFolder } from './folderWaiter';
import { SessionFolders, type WatchedRoot } from './sessionFolders';
import { toError } from '../../base/errorMessage';
import { errorCode } from '../fs/errors';
import { isWorkStopped, type Slots, type WorkScope } from '../../work';

/**
 * Files the first scan looks at (opened for the first line and the last bytes) at once. All at once,
 * a history of 1,000 sessions held the extension host for 80 ms in a row as their reads completed together.
 */
const FIRST_LOOKS_AT_ONCE = 4;

export type { KnownFile, RewriteReason, SessionFileEvent } from './fileTail';

export type { WatchedRoot } from './sessionFolders';

export interface SessionWatcherOptions {
	/** The watcher's own scope: closing it stops the watch, and no event follows once it has closed. */
	readonly work: WorkScope;
	readonly roots: readonly WatchedRoot[];
	readonly onEvent: (event: SessionFileEvent) => void;
	readonly onError?: (error: Error) => void;
	/** Delay that coalesces a burst of changes to one file before it is read (default 25 ms). */
	readonly coalesceMs?: number;
	/**
	 * What the session index knows of the files, once it has listed them (undefined: no index): the first
	 * scan tracks a file the index read completely and that has not changed since from its row, with a
	 * `stat` and no read (a warm start of a thousand sessions opened each one for its first and last bytes).
	 */
	readonly knownFiles?: Promise<ReadonlyMap<string, KnownFile> | undefined>;
}

export interface SessionWatcher {
	/** Resolves once the files already present are tracked (they are not reported as `added`). */
	readonly ready: Promise<void>;
	/** Offset after the last complete line reported for `path`: where its next `appended` starts. */
	consumedOffset(path: string): number | undefined;
}

export function watchSessionFiles(options: SessionWatcherOptions): SessionWatcher {
	return new SessionFolderWatcher(options);
}

class SessionFolderWatcher implements SessionWatcher {
	readonly ready: Promise<void>;
	private readonly tails = new Map<string, FileTail>();
	private readonly queue: FileTaskQueue;
	private readonly firstLooks: Slots;
	private readonly work: WorkScope;
	private readonly closing: Promise<void>;

	constructor(private readonly options: SessionWatcherOptions) {
		const work = options.work;
		this.work = work;
		this.queue = new FileTaskQueue(work, options.coalesceMs ?? 25, (error) => this.fail(error));
		this.firstLooks = work.slots(FIRST_LOOKS_AT_ONCE);
		this.closing = new Promise((done) => work.signal.addEventListener('abort', () => done(), { once: true }));
		const roots = options.roots.map((root) => ({ path: resolve(root.path), layout: root.layout }));
		this.ready = work.run(() => Promise.all(roots.map((root) => this.startRoot(root, false)))).then(() => undefined, (error: unknown) => {
			if (!isWorkStopped(error)) {
				this.fail(error);
			}
		});
	}

	consumedOffset(path: string): number | undefined {
		return this.tails.get(path)?.consumed;
	}

	private get closed(): boolean {
		return this.work.isClosed;
	}

	/** Watches `root`, or waits for it to exist. Files found by the first listing are `added` only when `announce`. */
	private async startRoot(root: WatchedRoot, announce: boolean): Promise<void> {
		if (this.closed) {
			return;
		}
		const identity = await folderIdentity(root.path);
		if (this.closed) {
			return;
		}
		if (identity === undefined) {
			const waiting = this.work.child(`waiting for ${root.path}`);
			waitForFolder(waiting, root.path, () => {
				void waiting.close();
				this.work.start(() => this.startRoot(root, true), (error) => this.fail(error));
			}, (error) => this.fail(error));
			return;
		}
		const scope = this.work.child(`watching ${root.path}`);
		const folders = new SessionFolders(scope, root, identity, {
			found: (path, first) => this.queue.run(path, () => this.firstLooks.run(() => (first ? this.trackFirst(path) : this.track(path, true)))),
			heard: (path, first) => this.queue.changed(path, () => this.check(path, first)),
			trackedIn: (folder) => [...this.tails.keys()].filter((path) => dirname(path) === folder),
			folderGone: (folder) => this.untrackUnder(folder),
			rootLost: () => {
				// Gone, or another folder at its path (moved away, or deleted and made again at once): followed from the start.
				this.untrackUnder(root.path);
				this.work.start(async () => {
					await scope.close();
					await this.startRoot(root, true);
				}, (error) => this.fail(error));
			},
			error: (error) => this.fail(error),
		}, announce);
		await folders.start();
	}

	/** A file found by the first listing: from the index's row when it still describes the file, else read. */
	private async trackFirst(path: string): Promise<void> {
		// Never waited for past the watcher's close (closing waits for this task).
		const files = await Promise.race([this.options.knownFiles?.catch(() => undefined), this.closing.then(() => undefined)]);
		const known = files?.get(path);
		if (this.closed) {
			return;
		}
		if (known !== undefined && !this.tails.has(path)) {
			const now = await stat(path).catch((error: unknown) => {
				if (errorCode(error) === 'ENOENT') {
					return undefined;
				}
				throw error;
			});
			if (now === undefined) {
				return; // deleted before it was tracked: nothing to report
			}
			const tail = knownTail(known, now);
			if (tail !== undefined) {
				this.tails.set(path, tail);
				return;
			}
		}
		return this.track(path, false);
	}

	private async track(path: string, announce: boolean): Promise<void> {
		if (this.tails.has(path)) {
			return this.check(path, false);
		}
		const snapshot = await snapshotTail(path);
		if (snapshot === undefined) {
			return;
		}
		this.tails.set(path, snapshot.tail);
		if (announce) {
			this.emit({ kind: 'added', path, size: snapshot.size, consumed: snapshot.tail.consumed });
		}
	}

	/** `path` was named by an event: read what it gained, or track it when new (silently while `first`), or forget it when gone. */
	private async check(path: string, first: boolean): Promise<void> {
		const tail = this.tails.get(path);
		if (tail === undefined) {
			return first ? this.trackFirst(path) : this.track(path, true);
		}
		const result = await advanceTail(path, tail);
		if (result === undefined) {
			this.forget(path);
			return;
		}
		this.tails.set(path, result.tail);
		if (result.event) {
			this.emit(result.event);
		}
	}

	private forget(path: string): void {
		if (this.tails.delete(path)) {
			this.emit({ kind: 'removed', path });
		}
	}

	/** Every file tracked in `folder` or in a folder inside it is gone. */
	private untrackUnder(folder: string): void {
		for (const path of this.tails.keys()) {
			if (dirname(path) === folder || dirname(dirname(path)) === folder) {
				this.queue.cancel(path);
				void this.queue.run(path, () => {
					this.forget(path);
					return Promise.resolve();
				});
			}
		}
	}

	private emit(event: SessionFileEvent): void {
		if (this.closed) {
			return;
		}
		try {
			this.options.onEvent(event);
		} catch (error) {
			this.fail(error);
		}
	}

	private fail(error: unknown): void {
		if (!this.closed) {
			this.options.onError?.(toError(error));
		}
	}
}

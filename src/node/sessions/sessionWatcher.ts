/**
 * Watches Pi's session folders and reports typed events per session file: `added`, `appended`
 * (only the bytes of newly completed lines), `rewritten` and `removed`. It never creates a folder
 * and never re-reads a whole file on append.
 *
 * chokidar is pinned to 4.0.3 on purpose: it is dual CJS/ESM and runs on Node ≥ 14.16, while
 * chokidar 5 is ESM-only for Node ≥ 20.19 and 6 needs Node ≥ 22.22. VS Code 1.100's extension host
 * runs Node 20.19.0, so 4 is the version that is safe for every host we support.
 *
 * `awaitWriteFinish` is off: Pi appends one line per write, and a line caught half-written is kept
 * (by offset) until its `\n` arrives. Bursts of changes to one file are coalesced by a short delay;
 * no bytes are lost, because every check reads from the last consumed offset to the current end.
 * (See `fileTaskQueue.ts` for a chokidar throttle this has to work around.)
 */
import { watch, type FSWatcher } from 'chokidar';
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { SessionLayout } from './sessionLocations';
import { advanceTail, knownTail, snapshotTail, type FileTail, type KnownFile, type SessionFileEvent } from './fileTail';
import { FileTaskQueue } from './fileTaskQueue';
import { folderIdentity, waitForFolder } from './folderWaiter';
import { toError } from '../../base/errorMessage';
import { closeWatcher } from '../fs/closeWatcher';
import { errorCode } from '../fs/errors';
import { isWorkStopped, type Slots, type WorkScope } from '../../work';

/**
 * Files the first scan looks at (opened for the first line and the last bytes) at once. All at once,
 * a history of 1,000 sessions held the extension host for 80 ms in a row as their reads completed together.
 */
const FIRST_LOOKS_AT_ONCE = 4;

export type { KnownFile, RewriteReason, SessionFileEvent } from './fileTail';

export interface WatchedRoot {
	readonly path: string;
	readonly layout: SessionLayout;
}

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
	private readonly watchers = new Set<FSWatcher>();
	private readonly work: WorkScope;
	private readonly closing: Promise<void>;

	constructor(private readonly options: SessionWatcherOptions) {
		const work = options.work;
		this.work = work;
		this.queue = new FileTaskQueue(work, options.coalesceMs ?? 25, (error) => this.fail(error));
		this.firstLooks = work.slots(FIRST_LOOKS_AT_ONCE);
		this.closing = new Promise((done) => work.signal.addEventListener('abort', () => done(), { once: true }));
		work.onClose(() => Promise.all([...this.watchers].map((watcher) => closeWatcher(watcher))));
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

	/** Watches `root`, or waits for it to exist. Files found by the first scan are `added` only when `announce`. */
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
		const isSessionFile = (path: string): boolean => path.endsWith('.jsonl')
			&& (root.layout === 'flat' ? dirname(path) : dirname(dirname(path))) === root.path;
		const watcher = watch(root.path, {
			depth: root.layout === 'flat' ? 0 : 1,
			ignoreInitial: false,
			awaitWriteFinish: false,
			ignored: (path: string, stats?: Stats) => stats !== undefined && (stats.isFile() ? !isSessionFile(path) : !isWatchedFolder(root, path)),
		});
		this.watchers.add(watcher);
		let scanned = false;
		const initial: Promise<void>[] = [];
		watcher.on('add', (path) => {
			if (!isSessionFile(path)) {
				return;
			}
			if (scanned) {
				void this.queue.run(path, () => this.track(path, true));
				return;
			}
			initial.push(this.queue.run(path, () => this.firstLooks.run(() => (announce ? this.track(path, true) : this.trackFirst(path)))));
		});
		watcher.on('change', (path) => {
			if (isSessionFile(path)) {
				this.queue.changed(path, () => this.check(path));
			}
		});
		watcher.on('unlink', (path) => {
			if (isSessionFile(path)) {
				this.untrack(path);
			}
			this.restartIfReplaced(root, watcher, identity);
		});
		watcher.on('unlinkDir', (path) => {
			this.untrackFolder(root, path, watcher);
			this.restartIfReplaced(root, watcher, identity);
		});
		watcher.on('error', (error) => this.fail(error));
		await Promise.race([new Promise<void>((done) => watcher.once('ready', done)), this.closing]);
		scanned = true;
		await Promise.all(initial);
	}

	/** A file found by the first scan: from the index's row when it still describes the file, else read. */
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
				return; // deleted: chokidar's unlink follows
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
			return this.check(path);
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

	private async check(path: string): Promise<void> {
		const tail = this.tails.get(path);
		if (tail === undefined) {
			return this.track(path, true);
		}
		const result = await advanceTail(path, tail);
		if (result === undefined) {
			return; // deleted: chokidar's unlink follows
		}
		this.tails.set(path, result.tail);
		if (result.event) {
			this.emit(result.event);
		}
	}

	private untrack(path: string): void {
		this.queue.cancel(path);
		void this.queue.run(path, () => {
			if (this.tails.delete(path)) {
				this.emit({ kind: 'removed', path });
			}
			return Promise.resolve();
		});
	}

	private untrackFolder(root: WatchedRoot, folder: string, watcher: FSWatcher): void {
		for (const path of this.tails.keys()) {
			if (dirname(path) === folder || dirname(dirname(path)) === folder) {
				this.untrack(path);
			}
		}
		// The session folder itself went away: go back to waiting for it (once, however many events say so).
		if (folder === root.path && this.watchers.delete(watcher)) {
			this.work.start(async () => {
				await closeWatcher(watcher);
				await this.startRoot(root, true);
			}, (error) => this.fail(error));
		}
	}

	/**
	 * chokidar reports the session folder's own removal only when reading its path fails once its last
	 * entry is gone: a folder moved away, or deleted and made again at once (Pi saving its next session),
	 * is never reported, and the watch stays on the old folder. So after anything is removed under it,
	 * the folder at that path is checked to be the one watched; another one is followed from the start.
	 */
	private restartIfReplaced(root: WatchedRoot, watcher: FSWatcher, identity: string): void {
		this.work.start(async () => {
			const now = await folderIdentity(root.path);
			if (now !== identity && !this.closed && this.watchers.has(watcher)) {
				this.untrackFolder(root, root.path, watcher);
			}
		}, (error) => this.fail(error));
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

/** Folders the watcher descends into: the root, and for the per-project layout its direct children. */
function isWatchedFolder(root: WatchedRoot, path: string): boolean {
	return path === root.path || (root.layout === 'per-project' && dirname(path) === root.path);
}

/**
 * The folders of one session root, watched: the root itself and, for the per-project layout, each
 * project folder in it. One `fs.watch` per folder, never one per file: a folder's watch names every
 * entry that changes in it (a session file appended to, made, renamed or deleted; a project folder
 * made or removed), whatever the file's inode, so a history of a thousand sessions costs some forty
 * watches and no per-file set-up at a start. What a name means is decided by looking at it: a session
 * file is passed on to be checked (`heard`), a project folder is watched and listed, or forgotten.
 *
 * The first listing goes folder by folder, in slices that let the thread go (`listFolder`); the files
 * it finds are passed on (`found`) and looked at a few at a time by the listener.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, join } from 'node:path';
import type { SessionLayout } from './sessionLocations';
import { folderIdentity } from './folderWaiter';
import { isSessionFileName, listFolder } from './folderListing';
import { errorMessage } from '../../base/errorMessage';
import { errorCode } from '../fs/errors';
import { isWorkStopped, type SerialQueue, type WorkScope } from '../../work';

export interface WatchedRoot {
	readonly path: string;
	readonly layout: SessionLayout;
}

export interface SessionFolderListener {
	/** A session file a listing found; `first` while the root's silent first listing runs. Settles once it is tracked. */
	found(path: string, first: boolean): Promise<void>;
	/** An event named a session file: it may have grown, been rewritten, appeared or gone. */
	heard(path: string, first: boolean): void;
	/** The files tracked directly inside `folder`. */
	trackedIn(folder: string): readonly string[];
	/** `folder` is gone or was replaced: every file tracked in it is gone. */
	folderGone(folder: string): void;
	/** The root is gone or another folder is at its path: this watch is over (close its scope). */
	rootLost(): void;
	error(error: unknown): void;
}

export class SessionFolders {
	/** Each watched folder, with the identity (device and inode) it had when its watch started. */
	private readonly watches = new Map<string, { readonly identity: string; readonly watcher: FSWatcher }>();
	/** Listings and folder checks, one at a time and in order, so an older look never undoes a newer one. */
	private readonly folderWork: SerialQueue;
	private first: boolean;
	private lost = false;

	/**
	 * `work` is this root's own scope: closing it ends every watch. `identity` is the root folder's when
	 * it was found; `announce` false makes the first listing silent (files present at start are not new).
	 */
	constructor(private readonly work: WorkScope, private readonly root: WatchedRoot, private readonly identity: string, private readonly listener: SessionFolderListener, announce: boolean) {
		this.first = !announce;
		this.folderWork = work.serialQueue();
		work.onClose(() => {
			for (const folder of this.watches.values()) {
				folder.watcher.close();
			}
			this.watches.clear();
		});
	}

	/** Watches the root and lists it; resolves once every file found is tracked. */
	async start(): Promise<void> {
		const found: Promise<void>[] = [];
		await this.folderWork.run(async (signal) => {
			if (!this.watchFolder(this.root.path, this.identity)) {
				// Gone meanwhile: followed from the start. Still there: the failure was reported, and is not retried.
				if (await folderIdentity(this.root.path) !== this.identity) {
					this.loseRoot();
				}
				return;
			}
			await this.list(this.root.path, signal, found);
		});
		await Promise.all(found);
		this.first = false;
	}

	private get closed(): boolean {
		return this.work.isClosed || this.lost;
	}

	/** Starts watching `folder` (known to have `identity`); false when it is gone already or cannot be watched (reported). */
	private watchFolder(folder: string, identity: string): boolean {
		let watcher: FSWatcher;
		try {
			watcher = watch(folder, (_event, name) => this.heard(folder, name));
		} catch (error) {
			if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') {
				this.fail(new Error(`cannot watch ${folder}: ${errorMessage(error)}`));
			}
			return false;
		}
		// A folder removed under its watch ends it with an error on some systems: looked at again.
		watcher.on('error', () => this.lookAgain(folder, 'renew'));
		this.watches.set(folder, { identity, watcher });
		return true;
	}

	private unwatch(folder: string): void {
		this.watches.get(folder)?.watcher.close();
		this.watches.delete(folder);
	}

	private heard(folder: string, name: string | Buffer | null): void {
		if (this.closed) {
			return;
		}
		if (name === null) {
			// The event names nothing (the system dropped events): the folder is listed again.
			this.lookAgain(folder, 'relist');
			return;
		}
		const entry = name.toString();
		if (entry === basename(folder)) {
			// A watched folder reports its own removal or move under its own name, and its watch is dead
			// from then on, even when a folder made again at once gets the same inode back. (A change of
			// its times or rights is reported so too: watched anew all the same.)
			this.lookAgain(folder, 'renew');
			return;
		}
		const path = join(folder, entry);
		if (folder === this.root.path && this.root.layout === 'per-project') {
			this.lookAgain(path, 'check');
		} else if (isSessionFileName(entry)) {
			this.listener.heard(path, this.first);
		}
	}

	/**
	 * Looks at a folder again, the root or a project folder: one that appeared is watched and listed, one
	 * gone or replaced is forgotten (a root gone or replaced ends this watch). `relist` lists it again
	 * whatever it finds, `renew` also watches it anew.
	 */
	private lookAgain(folder: string, how: 'check' | 'relist' | 'renew'): void {
		void this.folderWork.run(async (signal) => {
			const identity = await folderIdentity(folder);
			if (this.closed) {
				return;
			}
			if (folder === this.root.path && identity !== this.identity) {
				this.loseRoot();
				return;
			}
			const watched = this.watches.get(folder);
			if (watched !== undefined && (watched.identity !== identity || how === 'renew')) {
				this.unwatch(folder);
				if (watched.identity !== identity) {
					this.listener.folderGone(folder);
				}
			}
			if (identity === undefined) {
				// A project folder went away: its root may have gone with it (removed whole, or moved).
				if (await folderIdentity(this.root.path) !== this.identity) {
					this.loseRoot();
				}
				return;
			}
			if (this.watches.has(folder)) {
				if (how !== 'check') {
					await this.list(folder, signal, []);
				}
			} else if (this.watchFolder(folder, identity)) {
				await this.list(folder, signal, []);
			}
		}).catch((error: unknown) => this.fail(error));
	}

	/**
	 * Lists `folder`: session files are passed on (their promises pushed onto `found`), project folders
	 * of the root watched and listed. Then what the listing no longer shows is gone.
	 */
	private async list(folder: string, signal: AbortSignal, found: Promise<void>[]): Promise<void> {
		const holdsProjects = folder === this.root.path && this.root.layout === 'per-project';
		const present = new Set<string>();
		const listed = await listFolder(folder, signal, async (entries) => {
			for (const entry of entries) {
				if (holdsProjects && entry.kind === 'folder') {
					present.add(entry.path);
					await this.listProject(entry.path, signal, found);
				} else if (!holdsProjects && entry.kind === 'file' && isSessionFileName(entry.name)) {
					present.add(entry.path);
					found.push(this.listener.found(entry.path, this.first));
				}
			}
		});
		if (this.closed) {
			return;
		}
		if (!listed) {
			this.lookAgain(folder, 'check');
			return;
		}
		if (holdsProjects) {
			for (const watched of [...this.watches.keys()]) {
				if (watched !== this.root.path && !present.has(watched)) {
					this.unwatch(watched);
					this.listener.folderGone(watched);
				}
			}
		}
		for (const path of this.listener.trackedIn(folder)) {
			if (!present.has(path)) {
				this.listener.heard(path, this.first); // its check finds it gone
			}
		}
	}

	/** A project folder found by the root's listing: watched and listed once. */
	private async listProject(folder: string, signal: AbortSignal, found: Promise<void>[]): Promise<void> {
		if (this.watches.has(folder)) {
			return;
		}
		const identity = await folderIdentity(folder);
		if (identity !== undefined && !this.closed && this.watchFolder(folder, identity)) {
			// A project folder that cannot be read (its rights) is reported; the others are listed all the same.
			await this.list(folder, signal, found).catch((error: unknown) => {
				if (isWorkStopped(error)) {
					throw error;
				}
				this.fail(error);
			});
		}
	}

	private loseRoot(): void {
		if (!this.lost) {
			this.lost = true;
			this.listener.rootLost();
		}
	}

	private fail(error: unknown): void {
		if (!this.work.isClosed) {
			this.listener.error(error);
		}
	}
}

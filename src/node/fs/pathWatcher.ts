/**
 * Watches a few paths that decide a result (Pi's settings.json, a package's package.json, an
 * extensions folder down to a depth), any of which may not exist yet, and says when something
 * under them changes.
 *
 * Only folders are watched, never files. A watch on a file follows its inode, and the atomic
 * replacement Pi, npm and Pi Condense itself use (write beside, rename over) leaves it on the old
 * one: chokidar 4, which watches each file that way, missed about one in eight in-place writes made
 * after a replacement (test/unit/node/fs/pathWatcher.test.ts), so a repaired settings.json went
 * unnoticed. A folder's own watch reports every change of its entries, whatever their inode.
 *
 * Each event re-plans which folders are watched: folders that appear, go away or are replaced.
 */
import { watch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { isWorkStopped, type Debounce, type SerialQueue, type WorkScope } from '../../work';

/** A path that matters, and how many levels below it changes matter too (0: the path itself). */
export interface WatchedPath {
	readonly path: string;
	readonly depth: number;
}

/** Folders are re-planned this long after the last event of a burst. */
const REPLAN_DELAY_MS = 20;

export class PathWatcher {
	private readonly targets: readonly WatchedPath[];
	/** Each watched folder, by path, with the inode it had when its watch started. */
	private readonly folders = new Map<string, { readonly inode: number; readonly watcher: FSWatcher }>();
	/**
	 * Folders whose watch heard their own name: a folder removed reports itself so, and its watch is
	 * dead from then on. Watched anew at the next plan even when the folder is back with the same
	 * inode (a folder removed and made again at once often gets it back).
	 */
	private readonly suspect = new Set<string>();
	/** Plans run one at a time, in order, so an older plan never undoes a newer one. */
	private readonly plans: SerialQueue;
	/** A burst of events is re-planned once. */
	private readonly replans: Debounce;
	private readonly firstPlan: Promise<void>;
	private lastPlan: Promise<void>;
	/** The plan scheduled and not run yet, for `settled`. */
	private scheduled: { readonly done: Promise<void>; readonly resolve: () => void } | undefined;

	/**
	 * `work` is the watcher's own scope (a child of its owner's): closing it, or `close`, ends every
	 * watch and a plan under way. `onChange` hears the path of every change under the targets;
	 * `onError` a watch that failed.
	 */
	constructor(private readonly work: WorkScope, targets: readonly WatchedPath[], private readonly onChange: (path: string) => void, private readonly onError: (error: unknown) => void) {
		this.targets = targets.map((target) => ({ path: resolve(target.path), depth: target.depth }));
		this.plans = work.serialQueue();
		this.replans = work.debounce(REPLAN_DELAY_MS, async () => {
			const scheduled = this.scheduled;
			this.scheduled = undefined;
			await this.replan(true);
			scheduled?.resolve();
		});
		work.onClose(() => {
			this.scheduled?.resolve();
			for (const folder of this.folders.values()) {
				folder.watcher.close();
			}
			this.folders.clear();
		});
		this.firstPlan = this.replan(false);
		this.lastPlan = this.firstPlan;
	}

	/** Resolves once the first folders are watched (changes after that are reported). */
	ready(): Promise<void> {
		return this.firstPlan;
	}

	/** Resolves once the folders reflect every event heard so far (no new plan is pending). */
	settled(): Promise<void> {
		return this.scheduled?.done ?? this.lastPlan;
	}

	/** Ends every watch, once a plan under way has stopped. */
	close(): Promise<void> {
		return this.work.close();
	}

	private get closed(): boolean {
		return this.work.isClosed;
	}

	/** Watches the folders the targets need now; says so when that set changed after the first time. */
	private replan(announce: boolean): Promise<void> {
		const plan = this.plans.run(async () => {
			const wanted = await foldersToWatch(this.targets);
			if (this.closed) {
				return;
			}
			const changed: string[] = [];
			const suspect = new Set(this.suspect);
			this.suspect.clear();
			for (const [path, folder] of this.folders) {
				if (wanted.get(path) !== folder.inode || suspect.has(path)) {
					folder.watcher.close();
					this.folders.delete(path);
					changed.push(path);
				}
			}
			for (const [path, inode] of wanted) {
				if (!this.folders.has(path) && this.watchFolder(path, inode)) {
					changed.push(path);
				}
			}
			if (announce && changed.length > 0) {
				this.onChange(changed[0] ?? '');
			}
		}).catch((error: unknown) => {
			if (!isWorkStopped(error)) {
				this.onError(error);
			}
		});
		this.lastPlan = plan;
		return plan;
	}

	/** Starts watching a folder; false when it is gone already (a new plan follows). */
	private watchFolder(path: string, inode: number): boolean {
		let watcher: FSWatcher;
		try {
			watcher = watch(path, { persistent: false }, (_event, name) => this.heard(path, name));
		} catch {
			this.scheduleReplan(); // gone between the plan and the watch
			return false;
		}
		// A folder removed under its watch ends it with an error on some systems: planned again, not reported.
		watcher.on('error', () => this.scheduleReplan());
		this.folders.set(path, { inode, watcher });
		return true;
	}

	private heard(folder: string, name: string | Buffer | null): void {
		if (this.closed) {
			return;
		}
		const path = name === null ? folder : join(folder, name.toString());
		if (name !== null && name.toString() === basename(folder)) {
			this.suspect.add(folder);
		}
		if (name === null || this.relevant(path)) {
			this.onChange(path);
		}
		this.scheduleReplan();
	}

	private scheduleReplan(): void {
		if (this.closed) {
			return;
		}
		if (this.scheduled === undefined) {
			let resolve = (): void => undefined;
			const done = new Promise<void>((settle) => {
				resolve = settle;
			});
			this.scheduled = { done, resolve };
		}
		this.replans.schedule();
	}

	/** Whether a change of `path` matters: a target, within a target's depth, or on the way down to one. */
	private relevant(path: string): boolean {
		return this.targets.some((target) => {
			const below = relative(target.path, path);
			if (below === '') {
				return true;
			}
			if (isBelow(below)) {
				return below.split(sep).length <= target.depth;
			}
			return isBelow(relative(path, target.path));
		});
	}
}

/** The folders to watch, each with its inode: what holds each target, and the target's own folders down to its depth. */
async function foldersToWatch(targets: readonly WatchedPath[]): Promise<Map<string, number>> {
	const folders = new Map<string, number>();
	for (const target of targets) {
		const holder = await nearestFolder(dirname(target.path));
		if (holder) {
			folders.set(holder.path, holder.inode);
		}
		await addFoldersBelow(target.path, target.depth, folders);
	}
	return folders;
}

/** `path` and its subfolders, while files `depth` levels below `path` are still in reach. */
async function addFoldersBelow(path: string, depth: number, folders: Map<string, number>): Promise<void> {
	if (depth < 1) {
		return;
	}
	const inode = await folderInode(path);
	if (inode === undefined) {
		return;
	}
	folders.set(path, inode);
	const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
	for (const entry of entries) {
		if (entry.isDirectory()) {
			await addFoldersBelow(join(path, entry.name), depth - 1, folders);
		}
	}
}

async function nearestFolder(path: string): Promise<{ path: string; inode: number } | undefined> {
	let current = path;
	for (;;) {
		const inode = await folderInode(current);
		if (inode !== undefined) {
			return { path: current, inode };
		}
		if (dirname(current) === current) {
			return undefined;
		}
		current = dirname(current);
	}
}

async function folderInode(path: string): Promise<number | undefined> {
	const stats = await stat(path).catch(() => undefined);
	return stats?.isDirectory() ? stats.ino : undefined;
}

/** Whether a relative path stays below its base (on Windows, a path to another drive comes back absolute). */
function isBelow(relativePath: string): boolean {
	return relativePath !== '' && !relativePath.startsWith('..') && resolve(relativePath) !== relativePath;
}

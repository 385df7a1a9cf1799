/**
 * Waits, without creating anything, for a folder that does not exist yet (a fresh Pi install has
 * no `sessions/` folder until the first session is saved). chokidar 4 reports nothing for a
 * missing path, so this watches the nearest existing ancestor, one level deep, and moves down as
 * the missing folders appear.
 */
import { watch, type FSWatcher } from 'chokidar';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { toError } from '../../base/errorMessage';
import { closeWatcher } from '../fs/closeWatcher';

export interface FolderWaiter {
	close(): Promise<void>;
}

export function waitForFolder(folder: string, onAppear: () => void, onError: (error: Error) => void): FolderWaiter {
	let watcher: FSWatcher | undefined;
	let closed = false;
	let checking = Promise.resolve();

	const check = (): void => {
		checking = checking.then(async () => {
			if (closed) {
				return;
			}
			if (await isDirectory(folder)) {
				closed = true;
				await (watcher && closeWatcher(watcher));
				onAppear();
				return;
			}
			const ancestor = await nearestExistingAncestor(folder);
			if (watcher === undefined || ancestor !== watchedPath) {
				await (watcher && closeWatcher(watcher));
				watchedPath = ancestor;
				watcher = watch(ancestor, { depth: 0, ignoreInitial: true, ignored: (_path, stats) => stats?.isFile() ?? false });
				watcher.on('addDir', check);
				watcher.on('ready', check); // the folder may have appeared while the watch was starting
				watcher.on('error', (error) => onError(toError(error)));
			}
		}).catch((error: unknown) => onError(toError(error)));
	};
	let watchedPath = '';
	check();

	return {
		async close() {
			closed = true;
			await checking;
			await (watcher && closeWatcher(watcher));
		},
	};
}

async function nearestExistingAncestor(path: string): Promise<string> {
	let current = dirname(path);
	while (!(await isDirectory(current)) && dirname(current) !== current) {
		current = dirname(current);
	}
	return current;
}

/** Which folder is at `path` (device and inode), or undefined when none is. */
export async function folderIdentity(path: string): Promise<string | undefined> {
	try {
		const stats = await stat(path);
		return stats.isDirectory() ? `${stats.dev}:${stats.ino}` : undefined;
	} catch {
		return undefined;
	}
}

async function isDirectory(path: string): Promise<boolean> {
	return (await folderIdentity(path)) !== undefined;
}

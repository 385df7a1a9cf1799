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
import { isWorkStopped, type WorkScope } from '../../work';

/**
 * Watches for `folder` under `work` (a scope of its own: closing it closes the watch; close it once
 * `onAppear` was called). The checks run one at a time, in the order the watch asks for them.
 */
export function waitForFolder(work: WorkScope, folder: string, onAppear: () => void, onError: (error: Error) => void): void {
	let watcher: FSWatcher | undefined;
	let watchedPath = '';
	let appeared = false;
	const checks = work.serialQueue();
	work.onClose(() => watcher && closeWatcher(watcher));

	const check = (): void => {
		checks.run(async (signal) => {
			if (appeared) {
				return;
			}
			if (await isDirectory(folder)) {
				appeared = true;
				await (watcher && closeWatcher(watcher));
				watcher = undefined;
				if (!signal.aborted) {
					onAppear();
				}
				return;
			}
			const ancestor = await nearestExistingAncestor(folder);
			if (watcher === undefined || ancestor !== watchedPath) {
				await (watcher && closeWatcher(watcher));
				watcher = undefined;
				// Checked after every wait: a watch made once the scope closed would outlive it.
				if (signal.aborted) {
					return;
				}
				watchedPath = ancestor;
				watcher = watch(ancestor, { depth: 0, ignoreInitial: true, ignored: (_path, stats) => stats?.isFile() ?? false });
				watcher.on('addDir', check);
				watcher.on('ready', check); // the folder may have appeared while the watch was starting
				watcher.on('error', (error) => onError(toError(error)));
			}
		}).catch((error: unknown) => {
			if (!isWorkStopped(error)) {
				onError(toError(error));
			}
		});
	};
	check();
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

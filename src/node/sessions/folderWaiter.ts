/**
 * Waits, without creating anything, for a folder that does not exist yet (a fresh Pi install has
 * no `sessions/` folder until the first session is saved). The folder's nearest existing ancestor is
 * watched (`PathWatcher`, folders only), moving down as the missing folders appear.
 */
import { stat } from 'node:fs/promises';
import { toError } from '../../base/errorMessage';
import { PathWatcher } from '../fs/pathWatcher';
import { isWorkStopped, type WorkScope } from '../../work';

/**
 * Watches for `folder` under `work` (a scope of its own: closing it closes the watch; close it once
 * `onAppear` was called). The checks run one at a time, in the order the watch asks for them.
 */
export function waitForFolder(work: WorkScope, folder: string, onAppear: () => void, onError: (error: Error) => void): void {
	let appeared = false;
	const checks = work.serialQueue();
	const check = (): void => {
		checks.run(async (signal) => {
			if (!appeared && await isDirectory(folder) && !signal.aborted) {
				appeared = true;
				onAppear();
			}
		}).catch((error: unknown) => {
			if (!isWorkStopped(error)) {
				onError(toError(error));
			}
		});
	};
	const watcher = new PathWatcher(work.child('folder watch'), [{ path: folder, depth: 0 }], check, (error) => onError(toError(error)));
	// The folder may have appeared while the watch was starting.
	void watcher.ready().then(check);
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

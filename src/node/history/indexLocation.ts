/**
 * Where the session index lives: one file per user, shared by every VS Code window and the command
 * line, in the platform's cache folder (it is rebuilt from the session files whenever it is lost):
 *   Linux and others  $XDG_CACHE_HOME/pi-condense/, else ~/.cache/pi-condense/
 *   macOS             ~/Library/Caches/pi-condense/
 *   Windows           %LOCALAPPDATA%\pi-condense\, else ~\AppData\Local\pi-condense\
 * It holds the text of the sessions, so its folder is made private (0700) and its file 0600.
 */
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

export const INDEX_FILE_NAME = 'session-index.sqlite';
const FOLDER_NAME = 'pi-condense';

export interface IndexLocationInputs {
	readonly env: NodeJS.ProcessEnv;
	readonly homedir: string;
	readonly platform: NodeJS.Platform;
}

/** The default index file for this user. */
export function defaultIndexPath(inputs: IndexLocationInputs): string {
	return join(cacheFolder(inputs), FOLDER_NAME, INDEX_FILE_NAME);
}

function cacheFolder({ env, homedir, platform }: IndexLocationInputs): string {
	const fromEnv = (name: string): string | undefined => {
		const value = env[name];
		// The XDG spec: a relative path is invalid and ignored.
		return value !== undefined && value !== '' && isAbsolute(value) ? value : undefined;
	};
	if (platform === 'win32') {
		return fromEnv('LOCALAPPDATA') ?? join(homedir, 'AppData', 'Local');
	}
	if (platform === 'darwin') {
		return join(homedir, 'Library', 'Caches');
	}
	return fromEnv('XDG_CACHE_HOME') ?? join(homedir, '.cache');
}

/**
 * Makes the index's folder (0700) and its file (0600) before SQLite opens it, so no journal or
 * database is ever created readable by others. The default folder is ours and is made private also
 * when it exists; a folder the user named (`--index`) is created private but never changed. Throws
 * the file system's error (read-only disk, no rights) for the caller to turn the index off.
 */
export function preparePrivateFile(path: string, folder: string, ownFolder: boolean): void {
	mkdirSync(folder, { recursive: true, mode: 0o700 });
	if (ownFolder) {
		chmodSync(folder, 0o700);
	}
	closeSync(openSync(path, 'a', 0o600));
	chmodSync(path, 0o600);
}

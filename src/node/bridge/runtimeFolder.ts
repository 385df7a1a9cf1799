/**
 * The private runtime folder where bridges put their discovery records and sockets. Both sides
 * compute the same candidates, in the same order: `$XDG_RUNTIME_DIR/pi-condense-vscode` (the user's
 * runtime folder, the same for a terminal and a desktop session); then a folder in the user's own
 * cache folder (`$XDG_CACHE_HOME` or `~/.cache`, `~/Library/Caches` on macOS), which no other user
 * can create first, as they can in a shared temporary folder; last `<tmp>/pi-condense-vscode-<uid>`
 * (a home folder that cannot be written). On Windows `%LOCALAPPDATA%\pi-condense-vscode`. A folder
 * is used only when it is a real directory (not a symlink), owned by this user, and closed to
 * everyone else (mode 0700); the bridge creates it so. Anything else is refused, with the reason,
 * and the next candidate is tried.
 */
import { lstat, mkdir } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { errorMessage } from '../../base/errorMessage';
import { errorCode } from '../fs/errors';

export const BRIDGE_FOLDER = 'pi-condense-vscode';

export interface Platform {
	readonly env: NodeJS.ProcessEnv;
	readonly platform: NodeJS.Platform;
	readonly tmp: string;
	/** The user's home folder (`os.homedir()`: `$HOME`, else the user's account). */
	readonly home: string;
	/** Undefined on Windows. */
	readonly uid: number | undefined;
}

export function currentPlatform(): Platform {
	return { env: process.env, platform: process.platform, tmp: tmpdir(), home: homedir(), uid: process.getuid?.() };
}

/** The folders a bridge may use, the preferred one first. */
export function runtimeFolderCandidates(on: Platform = currentPlatform()): string[] {
	if (on.platform === 'win32') {
		return [join(on.env.LOCALAPPDATA && isAbsolute(on.env.LOCALAPPDATA) ? on.env.LOCALAPPDATA : on.tmp, BRIDGE_FOLDER)];
	}
	const candidates: string[] = [];
	const runtimeDir = on.env.XDG_RUNTIME_DIR;
	if (runtimeDir && isAbsolute(runtimeDir)) {
		candidates.push(join(runtimeDir, BRIDGE_FOLDER));
	}
	const cache = userCacheFolder(on);
	if (cache !== undefined) {
		candidates.push(join(cache, BRIDGE_FOLDER));
	}
	candidates.push(join(on.tmp, ownTmpName(on)));
	return [...new Set(candidates)];
}

/** The user's cache folder, where only they can create anything; undefined without a usable home. */
function userCacheFolder(on: Platform): string | undefined {
	const cacheHome = on.env.XDG_CACHE_HOME;
	if (on.platform !== 'darwin' && cacheHome && isAbsolute(cacheHome)) {
		return cacheHome;
	}
	if (!on.home || !isAbsolute(on.home) || dirname(on.home) === on.home) {
		return undefined;
	}
	return on.platform === 'darwin' ? join(on.home, 'Library', 'Caches') : join(on.home, '.cache');
}

/**
 * The folders VS Code looks in: the bridge's candidates, in its order, then `/tmp`'s, where a Pi
 * started with the system's temporary folder puts its record when VS Code itself was given another
 * `TMPDIR`, and `~/.cache`'s, for a Pi started with another `XDG_CACHE_HOME` than VS Code's.
 */
export function discoveryFolders(on: Platform = currentPlatform()): string[] {
	const folders = runtimeFolderCandidates(on);
	if (on.platform === 'win32') {
		return folders;
	}
	const defaultCache = userCacheFolder({ ...on, env: {} });
	return [...new Set([...folders, join('/tmp', ownTmpName(on)), ...(defaultCache === undefined ? [] : [join(defaultCache, BRIDGE_FOLDER)])])];
}

const ownTmpName = (on: Platform): string => `${BRIDGE_FOLDER}-${on.uid ?? 'user'}`;

export type FolderCheck = { readonly ok: true } | { readonly ok: false; readonly problem: string };

/** Whether `folder` may hold records and sockets: a directory of ours, closed to others. */
export async function checkPrivateFolder(folder: string, on: Platform = currentPlatform()): Promise<FolderCheck> {
	let stats;
	try {
		stats = await lstat(folder);
	} catch (error) {
		return { ok: false, problem: errorCode(error) === 'ENOENT' ? `${folder} does not exist` : `${folder} cannot be read: ${errorMessage(error)}` };
	}
	if (stats.isSymbolicLink()) {
		return { ok: false, problem: `${folder} is a symbolic link` };
	}
	if (!stats.isDirectory()) {
		return { ok: false, problem: `${folder} is not a directory` };
	}
	if (on.platform === 'win32') {
		return { ok: true };
	}
	if (on.uid !== undefined && stats.uid !== on.uid) {
		return { ok: false, problem: `${folder} is owned by another user (uid ${stats.uid})` };
	}
	if ((stats.mode & 0o077) !== 0) {
		return { ok: false, problem: `${folder} is open to other users (mode ${(stats.mode & 0o777).toString(8)}, it must be 700)` };
	}
	return { ok: true };
}

/**
 * Creates the folder (mode 0700) unless it is there, then checks it. With `parents`, missing folders
 * above it are created too (0700: a cache folder of the user's own); otherwise its parent must exist.
 */
export async function ensurePrivateFolder(folder: string, on: Platform = currentPlatform(), parents = false): Promise<FolderCheck> {
	try {
		if (parents) {
			await mkdir(dirname(folder), { recursive: true, mode: 0o700 });
		}
		await mkdir(folder, { mode: 0o700 });
	} catch (error) {
		if (errorCode(error) !== 'EEXIST') {
			return { ok: false, problem: `${folder} cannot be created: ${errorMessage(error)}` };
		}
	}
	return checkPrivateFolder(folder, on);
}

/**
 * The longest socket path every platform takes (macOS's `sun_path` holds 104 bytes with the final
 * NUL, Linux's 108); a socket's name in the folder is `<pid>-<16 hex>.sock`.
 */
const MAX_SOCKET_PATH_BYTES = 103;
const SOCKET_NAME_BYTES = '4194304-0123456789abcdef.sock'.length;

/** The folder a bridge uses: the first candidate it can make private; undefined, with every reason, when none. */
export async function bridgeFolder(on: Platform = currentPlatform()): Promise<{ readonly folder: string } | { readonly problems: readonly string[] }> {
	const problems: string[] = [];
	const cache = userCacheFolder(on);
	for (const folder of runtimeFolderCandidates(on)) {
		if (on.platform !== 'win32' && Buffer.byteLength(join(folder, 'x'.repeat(SOCKET_NAME_BYTES))) > MAX_SOCKET_PATH_BYTES) {
			problems.push(`${folder} is too deep for a socket path (at most ${MAX_SOCKET_PATH_BYTES} bytes)`);
			continue;
		}
		const check = await ensurePrivateFolder(folder, on, cache !== undefined && dirname(folder) === cache);
		if (check.ok) {
			return { folder };
		}
		problems.push(check.problem);
	}
	return { problems };
}

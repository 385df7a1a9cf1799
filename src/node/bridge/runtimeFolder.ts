/**
 * The private runtime folder where bridges put their discovery records and sockets. Both sides
 * compute the same candidates: `$XDG_RUNTIME_DIR/pi-condense-vscode` (the user's runtime folder,
 * the same for a terminal and a desktop session), else `<tmp>/pi-condense-vscode-<uid>`; on Windows
 * `%LOCALAPPDATA%\pi-condense-vscode`. A folder is used only when it is a real directory (not a
 * symlink), owned by this user, and closed to everyone else (mode 0700); the bridge creates it so.
 * Anything else is refused, with the reason.
 */
import { lstat, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { errorMessage } from '../../base/errorMessage';
import { errorCode } from '../fs/errors';

export const BRIDGE_FOLDER = 'pi-condense-vscode';

export interface Platform {
	readonly env: NodeJS.ProcessEnv;
	readonly platform: NodeJS.Platform;
	readonly tmp: string;
	/** Undefined on Windows. */
	readonly uid: number | undefined;
}

export function currentPlatform(): Platform {
	return { env: process.env, platform: process.platform, tmp: tmpdir(), uid: process.getuid?.() };
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
	candidates.push(join(on.tmp, ownTmpName(on)));
	return [...new Set(candidates)];
}

/**
 * The folders VS Code looks in: the bridge's candidates, and `/tmp`'s, where a Pi started with the
 * system's temporary folder puts its record when VS Code itself was given another `TMPDIR`.
 */
export function discoveryFolders(on: Platform = currentPlatform()): string[] {
	const folders = runtimeFolderCandidates(on);
	return on.platform === 'win32' ? folders : [...new Set([...folders, join('/tmp', ownTmpName(on))])];
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

/** Creates the folder (mode 0700; its parent must exist) unless it is there, then checks it. */
export async function ensurePrivateFolder(folder: string, on: Platform = currentPlatform()): Promise<FolderCheck> {
	try {
		await mkdir(folder, { mode: 0o700 });
	} catch (error) {
		if (errorCode(error) !== 'EEXIST') {
			return { ok: false, problem: `${folder} cannot be created: ${errorMessage(error)}` };
		}
	}
	return checkPrivateFolder(folder, on);
}

/** The folder a bridge uses: the first candidate it can make private; undefined, with every reason, when none. */
export async function bridgeFolder(on: Platform = currentPlatform()): Promise<{ readonly folder: string } | { readonly problems: readonly string[] }> {
	const problems: string[] = [];
	for (const folder of runtimeFolderCandidates(on)) {
		const check = await ensurePrivateFolder(folder, on);
		if (check.ok) {
			return { folder };
		}
		problems.push(check.problem);
	}
	return { problems };
}

/**
 * Whether Pi's own command line (`pi`) can be run from a terminal: an executable named `pi` in one
 * of `PATH`'s folders (with `PATHEXT` on Windows). Only looks; runs nothing.
 */
import { delimiter } from 'node:path';
import type { LoginShellState } from '../../engine/release';
import { findExecutableOnPath } from '../paths/executableOnPath';

export function findPiOnPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<string | undefined> {
	return findExecutableOnPath('pi', env, platform);
}

/** Where a terminal finds `pi`, and the PATH to give it when VS Code's own has none. */
export interface PiForTerminal {
	readonly command: string;
	/** The login shell's PATH, set on the terminal: VS Code started without it (from a desktop launcher). */
	readonly path?: string;
}

/**
 * `pi` as a terminal opened by VS Code can run it: on VS Code's PATH, else on the user's login shell's
 * PATH (read from the user's own shell, never from a project or a session), as Pi's detection finds it.
 */
export async function findPiForTerminal(loginShell: LoginShellState, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<PiForTerminal | undefined> {
	const onHostPath = await findPiOnPath(env, platform);
	if (onHostPath !== undefined) {
		return { command: onHostPath };
	}
	if (loginShell.kind !== 'read' || loginShell.folders.length === 0) {
		return undefined;
	}
	const path = loginShell.folders.join(delimiter);
	const onLoginPath = await findPiOnPath({ ...env, PATH: path, Path: undefined }, platform);
	return onLoginPath === undefined ? undefined : { command: onLoginPath, path };
}

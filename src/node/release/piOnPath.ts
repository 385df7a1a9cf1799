/**
 * Whether Pi's own command line (`pi`) can be run from a terminal: an executable named `pi` in one
 * of `PATH`'s folders (with `PATHEXT` on Windows). Only looks; runs nothing.
 */
import { findExecutableOnPath } from '../paths/executableOnPath';

export function findPiOnPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<string | undefined> {
	return findExecutableOnPath('pi', env, platform);
}

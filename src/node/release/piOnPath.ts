/**
 * Whether Pi's own command line (`pi`) can be run from a terminal: an executable named `pi` in one
 * of `PATH`'s folders (with `PATHEXT` on Windows). Only looks; runs nothing.
 */
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

export async function findPiOnPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): Promise<string | undefined> {
	const folders = (env['PATH'] ?? env['Path'] ?? '').split(delimiter).filter((folder) => folder !== '');
	const names = platform === 'win32'
		? (env['PATHEXT'] ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((ext) => ext !== '').map((ext) => `pi${ext.toLowerCase()}`)
		: ['pi'];
	for (const folder of folders) {
		for (const name of names) {
			const candidate = join(folder, name);
			try {
				await access(candidate, platform === 'win32' ? constants.F_OK : constants.X_OK);
				return candidate;
			} catch {
				// not here
			}
		}
	}
	return undefined;
}

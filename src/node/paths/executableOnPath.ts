/**
 * Where a command name would be found on the `PATH` (with `PATHEXT` on Windows): the first
 * executable file of that name in `PATH`'s folders. Only looks; runs nothing.
 */
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import type { Environment } from './agentDir';

export async function findExecutableOnPath(name: string, env: Environment, platform: NodeJS.Platform): Promise<string | undefined> {
	const folders = (env['PATH'] ?? env['Path'] ?? '').split(delimiter).filter((folder) => folder !== '');
	const names = platform === 'win32'
		? (env['PATHEXT'] ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((ext) => ext !== '').map((ext) => `${name}${ext.toLowerCase()}`)
		: [name];
	for (const folder of folders) {
		for (const candidate of names.map((file) => join(folder, file))) {
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

/**
 * The Pi a test's process finds on the machine, decided by the test: its environment with no `pi` command
 * on PATH (npm puts this repository's own dev dependencies' `pi` first there) and npm's global folder
 * (`npm_config_prefix`) an empty folder of the test's, or one where Pi `version` is installed as
 * `npm install -g @earendil-works/pi-coding-agent` leaves it.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export function machinePiEnv(base: NodeJS.ProcessEnv, dir: string, version?: string): NodeJS.ProcessEnv {
	const prefix = join(dir, 'npm-prefix');
	const root = join(prefix, 'lib', 'node_modules');
	mkdirSync(root, { recursive: true });
	if (version !== undefined) {
		const pi = join(root, '@earendil-works', 'pi-coding-agent');
		mkdirSync(pi, { recursive: true });
		writeFileSync(join(pi, 'package.json'), JSON.stringify({ name: '@earendil-works/pi-coding-agent', version, bin: { pi: 'dist/bundle/cli.js' } }, null, 2));
	}
	const path = (base['PATH'] ?? '').split(delimiter).filter((folder) => folder !== '' && !existsSync(join(folder, 'pi'))).join(delimiter);
	return { ...base, PATH: path, npm_config_prefix: prefix };
}

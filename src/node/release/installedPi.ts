/**
 * Finds the Pi installed on the machine, read-only: the `pi` command on PATH, its real path followed up
 * to the package that holds it (`@earendil-works/pi-coding-agent`, or `@mariozechner/pi-coding-agent` up
 * to 0.73), else that package in npm's global folder (where `npm install -g` puts it; VS Code started
 * from a desktop may not have the shell's PATH). Runs nothing: npm's global folder comes from the
 * release detection's finder, which reads npm's configuration files.
 */
import { realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isPiPackageName, PI_PACKAGE_NAMES, type InstalledPi } from '../../engine/release';
import type { GlobalNpmRoot } from './globalNpmRoot';
import { readPackageJson } from './packageJson';
import { findPiOnPath } from './piOnPath';

export interface FindPiInputs {
	readonly env: NodeJS.ProcessEnv;
	readonly platform: NodeJS.Platform;
	readonly globalNpmRoot: GlobalNpmRoot;
	/** The user's `npmCommand` setting (`<agentDir>/settings.json`), when it has one; never a project's. */
	readonly npmCommand?: readonly string[];
}

/** Folders climbed from the `pi` script to its package (`dist/bundle/cli.js` is three below it). */
const MAX_CLIMB = 6;

export async function findInstalledPi(inputs: FindPiInputs): Promise<InstalledPi | undefined> {
	const command = await findPiOnPath(inputs.env, inputs.platform);
	if (command !== undefined) {
		const found = await packageAbove(await realpath(command).catch(() => command));
		if (found) {
			return { ...found, foundBy: 'path' };
		}
	}
	const answer = await inputs.globalNpmRoot(inputs.npmCommand);
	if (answer.kind !== 'found') {
		return undefined;
	}
	const root = answer.root;
	for (const name of PI_PACKAGE_NAMES) {
		const found = await piPackage(join(root, ...name.split('/')));
		if (found) {
			return { ...found, foundBy: 'npm-global' };
		}
	}
	return undefined;
}

async function packageAbove(file: string): Promise<Omit<InstalledPi, 'foundBy'> | undefined> {
	let dir = dirname(file);
	for (let i = 0; i < MAX_CLIMB; i++) {
		const found = await piPackage(dir);
		if (found) {
			return found;
		}
		const parent = dirname(dir);
		if (parent === dir) {
			return undefined;
		}
		dir = parent;
	}
	return undefined;
}

async function piPackage(dir: string): Promise<Omit<InstalledPi, 'foundBy'> | undefined> {
	const manifest = await readPackageJson(dir);
	if (manifest.kind !== 'ok' || !isPiPackageName(manifest.name) || typeof manifest.version !== 'string' || !/^v?\d+\.\d+\.\d+/.test(manifest.version)) {
		return undefined;
	}
	return { name: manifest.name, version: manifest.version, packageJsonPath: manifest.path };
}

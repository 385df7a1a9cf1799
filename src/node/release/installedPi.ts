/**
 * Finds the Pi installed on the machine, the one way both the release detection (which Pi the user
 * runs) and the pi-ai loader (whose pi-ai the summarizer uses) find it, as VS Code's ESLint extension
 * finds the eslint a user runs: the `pi` command on the `PATH` (the first one, as a shell would run it),
 * its links followed to the installed package (or npm's global layout around a shim script); else, when
 * npm's global folder is given, Pi's package there (VS Code started from a desktop may not have the
 * shell's PATH). Nothing a session file or a project says is read: no relative `PATH` entry (it would
 * name a folder relative to wherever VS Code started), nothing under an excluded folder (the open
 * workspace folders). Only looks: reads package.json files, runs nothing, loads nothing; npm's global
 * folder comes from the release detection's finder, which reads npm's configuration files.
 */
import { realpath } from 'node:fs/promises';
import { delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { isPiPackageName, PI_PACKAGE_NAMES, type InstalledPi, type LoginShellState, type PiNotFound } from '../../engine/release';
import type { GlobalNpmRoot } from './globalNpmRoot';
import { readPackageJson } from './packageJson';
import { findPiOnPath } from './piOnPath';

export interface FindPiInputs {
	/** Where `pi` is looked for (`PATH`, `PATHEXT`); this process's environment by default. */
	readonly env?: NodeJS.ProcessEnv;
	readonly platform?: NodeJS.Platform;
	/** Folders nothing may come from (the open workspace folders). */
	readonly excludedRoots?: readonly string[];
	/** npm's global folder, looked in when no `pi` is on the PATH; without it only the PATH counts. */
	readonly globalNpmRoot?: GlobalNpmRoot;
	/** The user's `npmCommand` setting (`<agentDir>/settings.json`), when it has one; never a project's. */
	readonly npmCommand?: readonly string[];
	/** The login shell's PATH, looked in first (a terminal's `pi`); else only `env`'s PATH counts. */
	readonly loginShell?: LoginShellState;
}

/** The Pi found: what the views say of it, and its folder. */
export interface FoundPi extends InstalledPi {
	/** The package's folder, links resolved. */
	readonly root: string;
}

export type PiSearch =
	| { readonly found: FoundPi }
	| { readonly notFound: string; readonly missing: PiNotFound };

/** Folders climbed from the `pi` script to its package (`dist/bundle/cli.js` is three below it). */
const MAX_CLIMB = 6;

export async function findInstalledPi(inputs: FindPiInputs = {}): Promise<PiSearch> {
	const env = inputs.env ?? process.env;
	const platform = inputs.platform ?? process.platform;
	const hostPath = absoluteFolders(env['PATH'] ?? env['Path'] ?? '');
	const loginShell = inputs.loginShell ?? { kind: 'unavailable', reason: 'not asked' };
	const searches: Array<[readonly string[], FoundPi['foundBy']]> = [
		...(loginShell.kind === 'read' ? [[loginShell.folders, 'login-shell-path'] as [readonly string[], FoundPi['foundBy']]] : []),
		[hostPath, 'path'],
	];
	let stray: string | undefined;
	let found: FoundPi | undefined;
	for (const [folders, foundBy] of searches) {
		const command = await findPiOnPath({ ...env, PATH: folders.join(delimiter), Path: undefined }, platform);
		const onPath = command === undefined ? undefined : await piPackageOf(command, platform);
		if (onPath) {
			found = { ...onPath, foundBy };
			break;
		}
		stray ??= command;
	}
	found ??= await inNpmGlobalFolder(inputs);
	if (!found) {
		const detail = stray === undefined ? undefined : `${stray} is not part of an installed ${PI_PACKAGE_NAMES.join(' or ')} package`;
		return { notFound: detail ?? 'no `pi` command on the PATH', missing: { hostPath, loginShell, detail } };
	}
	const excluded = (inputs.excludedRoots ?? []).find((root) => isInside(found.root, root));
	if (excluded !== undefined) {
		const detail = `the Pi at ${found.root} is inside the workspace folder ${excluded}; Pi Condense does not load code a project holds`;
		return { notFound: detail, missing: { hostPath, loginShell, detail } };
	}
	return { found };
}

/** A PATH's absolute folders (a relative one would name a folder relative to wherever VS Code started). */
function absoluteFolders(path: string): string[] {
	return path.split(delimiter).filter((folder) => folder !== '' && isAbsolute(folder));
}

/** The Pi package the `pi` command belongs to: its link followed, else npm's global layout around it. */
async function piPackageOf(command: string, platform: NodeJS.Platform): Promise<Omit<FoundPi, 'foundBy'> | undefined> {
	const target = await realpath(command).catch(() => undefined);
	let dir = target === undefined ? undefined : dirname(target);
	for (let climbed = 0; dir !== undefined && dir !== dirname(dir) && climbed < MAX_CLIMB; dir = dirname(dir), climbed++) {
		const found = await piPackage(dir);
		if (found || dir.endsWith(`${sep}node_modules`)) {
			return found;
		}
	}
	// A shim script (not a link): npm puts the package at <prefix>/lib/node_modules (<prefix>/node_modules on Windows).
	const prefix = platform === 'win32' ? dirname(command) : dirname(dirname(command));
	for (const name of PI_PACKAGE_NAMES) {
		const dir = platform === 'win32' ? join(prefix, 'node_modules', name) : join(prefix, 'lib', 'node_modules', name);
		const found = await piPackage(await realpath(dir).catch(() => dir));
		if (found) {
			return found;
		}
	}
	return undefined;
}

async function inNpmGlobalFolder(inputs: FindPiInputs): Promise<FoundPi | undefined> {
	const answer = await inputs.globalNpmRoot?.(inputs.npmCommand);
	if (answer?.kind !== 'found') {
		return undefined;
	}
	for (const name of PI_PACKAGE_NAMES) {
		const found = await piPackage(join(answer.root, ...name.split('/')));
		if (found) {
			return { ...found, foundBy: 'npm-global' };
		}
	}
	return undefined;
}

/** Pi's package in `dir`: one of Pi's own names, with a version. */
async function piPackage(dir: string): Promise<Omit<FoundPi, 'foundBy'> | undefined> {
	const manifest = await readPackageJson(dir);
	if (manifest.kind !== 'ok' || !isPiPackageName(manifest.name) || typeof manifest.version !== 'string' || !/^v?\d+\.\d+\.\d+/.test(manifest.version)) {
		return undefined;
	}
	return { name: manifest.name, version: manifest.version, packageJsonPath: manifest.path, root: dir };
}

function isInside(path: string, root: string): boolean {
	const rel = relative(root, path);
	return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

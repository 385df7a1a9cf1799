/**
 * Finds the Pi the user installed and the pi-ai it runs on, the way VS Code's ESLint extension finds the
 * eslint a user runs: from the `pi` command on the `PATH` (the first one, as a shell would run it), its
 * links resolved to the installed package, and pi-ai resolved from that package as Node resolves it.
 * Nothing a session file or a project says is read: no workspace `node_modules`, no `.pi` folder, no
 * relative `PATH` entry (it would name a folder relative to wherever VS Code started), and nothing under
 * an open workspace folder. Only looks: reads package.json files, runs nothing, loads nothing.
 */
import { realpath } from 'node:fs/promises';
import { delimiter, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { readPackageJson } from '../../release/packageJson';
import { findPiOnPath } from '../../release/piOnPath';

/** Pi's package names, newest first, each with the pi-ai package it depends on. */
const PI_PACKAGES: readonly { readonly name: string; readonly piAi: string }[] = [
	{ name: '@earendil-works/pi-coding-agent', piAi: '@earendil-works/pi-ai' },
	{ name: '@mariozechner/pi-coding-agent', piAi: '@mariozechner/pi-ai' },
];

export interface PackageFolder {
	readonly name: string;
	readonly version: string;
	/** The package's folder, links resolved. */
	readonly root: string;
}

export interface InstalledPi extends PackageFolder {
	/** The `pi` command found on the PATH. */
	readonly command: string;
	/** The pi-ai this Pi resolves, or why none was found. */
	readonly piAi: PackageFolder | { readonly missing: string };
}

export interface FindInstalledPiOptions {
	readonly env?: NodeJS.ProcessEnv;
	readonly platform?: NodeJS.Platform;
	/** Folders nothing may come from (the open workspace folders). */
	readonly excludedRoots?: readonly string[];
}

export type InstalledPiSearch =
	| { readonly found: InstalledPi }
	| { readonly notFound: string };

export async function findInstalledPi(options: FindInstalledPiOptions = {}): Promise<InstalledPiSearch> {
	const env = options.env ?? process.env;
	const platform = options.platform ?? process.platform;
	const folders = (env['PATH'] ?? env['Path'] ?? '').split(delimiter).filter((folder) => folder !== '' && isAbsolute(folder));
	const command = await findPiOnPath({ ...env, PATH: folders.join(delimiter), Path: undefined }, platform);
	if (!command) {
		return { notFound: 'no `pi` command on the PATH' };
	}
	const pi = await piPackageOf(command, platform);
	if (!pi) {
		return { notFound: `${command} is not part of an installed ${PI_PACKAGES.map((known) => known.name).join(' or ')} package` };
	}
	const excluded = (options.excludedRoots ?? []).find((root) => isInside(pi.root, root));
	if (excluded !== undefined) {
		return { notFound: `the Pi at ${pi.root} is inside the workspace folder ${excluded}; Pi Condense does not load code a project holds` };
	}
	const piAiName = PI_PACKAGES.find((known) => known.name === pi.name)?.piAi ?? '';
	const piAi = await resolvePackage(pi.root, piAiName);
	return { found: { ...pi, command, piAi: piAi ?? { missing: `${piAiName} is not installed beside ${pi.root}` } } };
}

/** The Pi package the `pi` command belongs to: its link followed, else npm's global layout around it. */
async function piPackageOf(command: string, platform: NodeJS.Platform): Promise<PackageFolder | undefined> {
	const target = await realpath(command).catch(() => undefined);
	for (let dir = target === undefined ? undefined : dirname(target); dir !== undefined && dir !== dirname(dir); dir = dirname(dir)) {
		const found = await knownPiPackage(dir);
		if (found || dir.endsWith(`${sep}node_modules`)) {
			return found;
		}
	}
	// A shim script (not a link): npm puts the package at <prefix>/lib/node_modules (<prefix>/node_modules on Windows).
	const prefix = platform === 'win32' ? dirname(command) : dirname(dirname(command));
	for (const known of PI_PACKAGES) {
		const dir = platform === 'win32' ? join(prefix, 'node_modules', known.name) : join(prefix, 'lib', 'node_modules', known.name);
		const found = await knownPiPackage(await realpath(dir).catch(() => dir));
		if (found) {
			return found;
		}
	}
	return undefined;
}

async function knownPiPackage(dir: string): Promise<PackageFolder | undefined> {
	const read = await readPackageJson(dir);
	if (read.kind !== 'ok' || typeof read.version !== 'string' || !PI_PACKAGES.some((known) => known.name === read.name)) {
		return undefined;
	}
	return { name: read.name as string, version: read.version, root: dir };
}

/** `name` as Node resolves it from `from`: `node_modules/<name>` in that folder, then in each folder above. */
async function resolvePackage(from: string, name: string): Promise<PackageFolder | undefined> {
	for (let dir = from; ; dir = dirname(dir)) {
		const candidate = join(dir, 'node_modules', ...name.split('/'));
		const read = await readPackageJson(candidate);
		if (read.kind === 'ok' && read.name === name && typeof read.version === 'string') {
			return { name, version: read.version, root: await realpath(candidate).catch(() => candidate) };
		}
		if (dir === dirname(dir)) {
			return undefined;
		}
	}
}

function isInside(path: string, root: string): boolean {
	const rel = relative(root, path);
	return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

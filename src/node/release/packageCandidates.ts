/**
 * Extension files Pi loads from the `packages` of the user and project settings (spec §8.1): the
 * entries deduplicated as Pi does, each source's install folder found, and its extensions listed
 * and filtered by the entry's `extensions` filter.
 */
import { basename, dirname, join } from 'node:path';
import {
	isPiCondenseName, namesPiCondense, parsePackageSource, pinnedVersion, type CopyScope, type PackageSource,
} from '../../engine/release';
import { DetectionLog, precedenceRank } from './candidates';
import { discoverExtensions, manifestExtensions, pathKind, type ExtensionFile } from './extensionFiles';
import type { GlobalNpmRoot } from './globalNpmRoot';
import { readPackageJson } from './packageJson';
import { resolveFromBase, type PackageEntry, type PiSettings } from './piSettings';
import { enabledByPatterns } from './resourcePatterns';

export interface ScopedSettings {
	readonly scope: CopyScope;
	readonly settings: PiSettings;
}

export interface PackageContext {
	readonly agentDir: string;
	/** `<cwd>/.pi`, when the project's settings are honoured. */
	readonly projectPiDir: string | undefined;
	readonly home: string;
	readonly globalNpmRoot: GlobalNpmRoot;
	/** The npmCommand Pi runs (project over user); never run here, only read to know which package manager's folder to look in. */
	readonly npmCommand: readonly string[] | undefined;
}

interface KeptEntry {
	readonly entry: PackageEntry;
	readonly scope: CopyScope;
	readonly settings: PiSettings;
	readonly filter: readonly string[] | undefined;
}

export async function collectPackageCandidates(scopes: readonly ScopedSettings[], context: PackageContext, log: DetectionLog): Promise<void> {
	for (const kept of dedupePackages(scopes, context.home)) {
		await collectEntry(kept, context, log);
	}
}

/**
 * Pi's dedupe: project entries first; a user entry with the identity of a project entry is
 * dropped, unless the project entry is an object with `autoload: false`, which only filters the
 * user entry. Such a filter without a user entry loads nothing (our reading of an undocumented case).
 */
function dedupePackages(scopes: readonly ScopedSettings[], home: string): KeptEntry[] {
	const kept = new Map<string, KeptEntry>();
	const filters = new Map<string, readonly string[] | undefined>();
	for (const { scope, settings } of [...scopes].sort((a, b) => (a.scope === 'project' ? 0 : 1) - (b.scope === 'project' ? 0 : 1))) {
		for (const entry of settings.packages) {
			const identity = packageIdentity(parsePackageSource(entry.source), settings.baseDir, home);
			if (entry.filterOnly) {
				if (scope === 'project') {
					filters.set(identity, entry.extensionsFilter);
				}
				continue;
			}
			if (kept.has(identity)) {
				continue;
			}
			const filter = filters.has(identity) ? filters.get(identity) : entry.extensionsFilter;
			kept.set(identity, { entry, scope, settings, filter });
		}
	}
	return [...kept.values()];
}

function packageIdentity(source: PackageSource, baseDir: string, home: string): string {
	switch (source.type) {
		case 'npm':
			return `npm:${source.name}`;
		case 'git':
			return `git:${source.host}/${source.path}`;
		case 'local':
			return `local:${resolveFromBase(source.path, baseDir, home)}`;
	}
}

async function collectEntry(kept: KeptEntry, context: PackageContext, log: DetectionLog): Promise<void> {
	const source = parsePackageSource(kept.entry.source);
	const ours = namesPiCondense(source);
	const installPath = await installPathOf(source, kept, context, log);
	const kind = await pathKind(installPath);
	// The folder and its files (an install writes package.json and index.ts in any order).
	if (kind === 'file') {
		log.follow(join(dirname(installPath), 'package.json'));
		log.follow(installPath);
	} else {
		log.follow(installPath, 1);
	}
	if (ours) {
		log.search(installPath);
	}
	if (kind === 'missing') {
		if (ours) {
			log.warn({ kind: 'configured-not-installed', entry: kept.entry.source, settingsFile: kept.settings.path, installPath, sourceKind: source.type });
		}
		return;
	}
	// A file entry is one extension; its folder's package.json says which package it belongs to.
	const root = kind === 'file' ? dirname(installPath) : installPath;
	const files = kind === 'file' ? [{ file: installPath, root }] : await packageExtensions(installPath, source.type === 'local');
	const enabled = enabledByFilter(files.map((f) => f.file), kept.filter, installPath);
	for (const { file } of files) {
		log.candidates.push({
			file,
			root,
			enabled: enabled.has(file),
			rank: precedenceRank(kept.scope, 'packages'),
			scope: kept.scope,
			foundBy: 'packages',
			sourceKind: source.type,
			entry: kept.entry.source,
			settingsFile: kept.settings.path,
			pinned: pinnedVersion(source),
		});
	}
	if (files.length === 0 && (ours || isPiCondenseName(basename(root)))) {
		// Nothing loadable: a broken package.json is the likely reason, worth naming.
		const manifest = await readPackageJson(root);
		log.warn(manifest.kind === 'unreadable' ? { kind: 'unreadable-package-json', file: manifest.path, reason: manifest.reason } : undefined);
	}
}

/** A package entry's `extensions` filter: none loads everything, `[]` nothing, patterns what they enable. */
function enabledByFilter(files: readonly string[], filter: readonly string[] | undefined, root: string): Set<string> {
	if (filter === undefined) {
		return new Set(files);
	}
	return filter.length === 0 ? new Set() : enabledByPatterns(files, filter, root);
}

/** npm: the project's `.pi/npm`, else the agent dir's `npm`, else npm's global folder (user scope). */
async function installPathOf(source: PackageSource, kept: KeptEntry, context: PackageContext, log: DetectionLog): Promise<string> {
	const base = kept.scope === 'project' ? context.projectPiDir ?? kept.settings.baseDir : context.agentDir;
	switch (source.type) {
		case 'local':
			return resolveFromBase(source.path, kept.settings.baseDir, context.home);
		case 'git':
			return join(base, 'git', source.host, ...source.path.split('/'));
		case 'npm': {
			const local = join(base, 'npm', 'node_modules', ...source.name.split('/'));
			if (kept.scope === 'project' || await pathKind(local) !== 'missing') {
				return local;
			}
			const answer = await context.globalNpmRoot(context.npmCommand);
			if (answer.kind !== 'found') {
				// Said only where it could hide pi-condense.
				log.warn(answer.kind === 'not-looked-up' && namesPiCondense(source) ? { kind: 'global-root-not-looked-up', command: answer.command, settingsFile: kept.settings.path } : undefined);
				return local;
			}
			const global = join(answer.root, ...source.name.split('/'));
			// Both are followed: Pi 0.83 switches to the agent dir's copy as soon as it exists.
			log.follow(local, 1);
			log.follow(global, 1);
			return await pathKind(global) === 'missing' ? local : global;
		}
	}
}

/**
 * A package's extensions: its manifest's `pi.extensions`, else its `extensions/` folder; a local
 * folder without either is loaded as one extension itself (Pi's loader then finds its index).
 */
async function packageExtensions(root: string, local: boolean): Promise<ExtensionFile[]> {
	const listed = await manifestExtensions(root);
	if (listed && listed.length > 0) {
		return listed;
	}
	const conventional = await discoverExtensions(join(root, 'extensions'));
	if (conventional.length > 0) {
		return conventional.map(({ file }) => ({ file, root }));
	}
	if (local && !listed) {
		return [{ file: root, root }];
	}
	// pi-condense whose files we cannot see (an install in progress, or an agent dir set up with its
	// package.json alone): it is identified by that package.json, and stands for its own `./index.ts`.
	const manifest = await readPackageJson(root);
	return manifest.kind === 'ok' && isPiCondenseName(manifest.name) ? [{ file: join(root, 'index.ts'), root }] : [];
}

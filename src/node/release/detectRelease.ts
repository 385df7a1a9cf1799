/**
 * Finds the copies of pi-condense Pi loads for a project, the way Pi finds packages (spec §8):
 * `packages` and `extensions` of the user settings (`<agentDir>/settings.json`) and of the
 * project settings (`<cwd>/.pi/settings.json`, only when trust.json and VS Code trust it), and the auto-discovered
 * `extensions/` folders. A copy is identified by its package.json `name` (`pi-condense`, or the
 * old `pi-context-prune`) and `version`, never by its path. Copies come out in Pi's precedence
 * order: project entry, project auto-discovery, user entry, user auto-discovery, package resources.
 *
 * Also finds the Pi itself (`installedPi.ts`), and returns the paths whose changes could change the
 * answer, for the release source to watch.
 */
import { realpath } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
	identifyCopy, isPiCondenseName, namesPiCondense, parsePackageSource, PI_CONDENSE_NAMES, type InstalledCopy, type InstalledPi, type LoginShellState, type ReleaseDetection,
} from '../../engine/release';
import { globalSettingsPath, projectSettingsPath } from '../paths/agentDir';
import { DetectionLog, type Candidate, type WatchTarget } from './candidates';
import { collectAutoDiscovered, collectExtensionEntries } from './extensionCandidates';
import { pathKind } from './extensionFiles';
import type { GlobalNpmRoot } from './globalNpmRoot';
import { collectPackageCandidates, type ScopedSettings } from './packageCandidates';
import { findInstalledPi, type FoundPi } from './installedPi';
import { readPackageJson } from './packageJson';
import { readPiSettings, type PiSettings } from './piSettings';
import { projectTrust, trustFilePath } from './projectTrust';

export interface DetectInputs {
	readonly agentDir: string;
	/** The project Pi runs in (a session's `cwd`: data, never a reason to run anything); undefined looks at the user scope only. */
	readonly cwd: string | undefined;
	/** Where `~` points (Pi uses `$HOME`, else the OS home folder). */
	readonly home: string;
	readonly globalNpmRoot: GlobalNpmRoot;
	/**
	 * Whether a project's `.pi` settings may be followed at all: false in a VS Code workspace that is
	 * not trusted. Even when true, only projects Pi's trust.json trusts are followed.
	 */
	readonly projectSettingsAllowed: boolean;
	/** Where the `pi` command is looked for (PATH); this process's environment by default. */
	readonly env?: NodeJS.ProcessEnv;
	/** The user's login shell's PATH, looked in first, as a terminal finds `pi`. */
	readonly loginShell?: LoginShellState;
	/** Folders Pi is never followed into (the open workspace folders). */
	readonly excludedRoots?: readonly string[];
}

export interface Detected {
	readonly detection: ReleaseDetection;
	readonly watch: readonly WatchTarget[];
}

export async function detectRelease(inputs: DetectInputs): Promise<Detected> {
	const log = new DetectionLog();
	const user = await readPiSettings(globalSettingsPath(inputs.agentDir), inputs.agentDir);
	log.search(user.path);
	log.follow(user.path);
	log.warn(user.problem);
	// An empty cwd (a header without one) is no project, never the process's own folder.
	const project = inputs.cwd ? await honouredProject(inputs, inputs.cwd, log) : undefined;
	const scopes: ScopedSettings[] = project ? [{ scope: 'project', settings: project }, { scope: 'user', settings: user }] : [{ scope: 'user', settings: user }];
	await collectPackageCandidates(scopes, {
		agentDir: inputs.agentDir,
		projectPiDir: project?.baseDir,
		home: inputs.home,
		globalNpmRoot: inputs.globalNpmRoot,
		npmCommand: project?.npmCommand ?? user.npmCommand,
	}, log);
	for (const { scope, settings } of scopes) {
		await collectExtensionEntries(scope, settings, inputs.home, log);
	}
	for (const { scope, settings } of scopes) {
		await collectAutoDiscovered(scope, settings, log);
	}
	const copies = await identifyCopies(await loadedCandidates(log.candidates), log);
	for (const copy of copies) {
		log.follow(copy.packageJsonPath);
	}
	// Pi is the user's: only the user's npmCommand may name how to find it, never a project's.
	const search = await findInstalledPi({
		env: inputs.env ?? process.env, platform: process.platform, globalNpmRoot: inputs.globalNpmRoot, npmCommand: user.npmCommand,
		excludedRoots: inputs.excludedRoots ?? [], ...(inputs.loginShell ? { loginShell: inputs.loginShell } : {}),
	});
	const pi = 'found' in search ? installedPi(search.found) : undefined;
	const missing = 'missing' in search ? { piNotFound: search.missing } : {};
	if (pi) {
		// `pi update` rewrites it.
		log.follow(pi.packageJsonPath);
	}
	return { detection: { copies, searched: log.searched, warnings: log.warnings, ...(pi ? { pi } : missing) }, watch: log.watch };
}

/**
 * The project's `.pi` settings when they are followed: only when trust.json trusts the project (Pi
 * itself reads them once trusted; before Pi had trust.json it always read them, but a folder named
 * by a session header must not choose what we load without a decision of the user's) and the
 * workspace is trusted. Otherwise undefined, with a warning when the ignored settings bring pi-condense.
 */
async function honouredProject(inputs: DetectInputs, cwd: string, log: DetectionLog): Promise<PiSettings | undefined> {
	const piDir = join(cwd, '.pi');
	const settingsPath = projectSettingsPath(cwd);
	log.follow(settingsPath);
	log.follow(join(piDir, 'extensions'), 2);
	log.follow(trustFilePath(inputs.agentDir));
	// Pi asks for trust only when `.pi` holds something that needs it; npm/ and git/ alone do not.
	const needsTrust = await pathKind(settingsPath) !== 'missing' || await pathKind(join(piDir, 'extensions')) === 'dir';
	if (!needsTrust) {
		return undefined;
	}
	const trust = await projectTrust(inputs.agentDir, cwd);
	const settings = await readPiSettings(settingsPath, piDir);
	if (trust.kind === 'trusted' && inputs.projectSettingsAllowed) {
		log.search(settings.path);
		log.warn(settings.problem);
		return settings;
	}
	if (await mentionsPiCondense(settings, piDir)) {
		log.warn(trust.kind === 'untrusted' ? { kind: 'project-untrusted', projectDir: cwd, decidedBy: trust.decidedBy }
			: trust.kind === 'undetermined' ? { kind: 'trust-undetermined', projectDir: cwd, trustFile: trustFilePath(inputs.agentDir), reason: trust.reason }
				: { kind: 'workspace-restricted', projectDir: cwd });
	}
	return undefined;
}

/** Whether an ignored project's `.pi` names pi-condense, so that ignoring it is worth saying. */
async function mentionsPiCondense(settings: PiSettings, piDir: string): Promise<boolean> {
	if (settings.packages.some((entry) => namesPiCondense(parsePackageSource(entry.source)))
		|| settings.extensions.some((entry) => /pi-con(dense|text-prune)/.test(entry))) {
		return true;
	}
	for (const name of PI_CONDENSE_NAMES) {
		if (await pathKind(join(piDir, 'extensions', name)) !== 'missing') {
			return true;
		}
	}
	return false;
}

/**
 * What Pi really loads: the first candidate per path (Pi keeps the first one it met), sorted by
 * precedence, the first per real path (symlinks resolved), and only enabled ones.
 */
async function loadedCandidates(candidates: readonly Candidate[]): Promise<Candidate[]> {
	const byPath = new Map<string, Candidate>();
	for (const candidate of candidates) {
		if (!byPath.has(candidate.file)) {
			byPath.set(candidate.file, candidate);
		}
	}
	const sorted = [...byPath.values()].sort((a, b) => a.rank - b.rank);
	const seen = new Set<string>();
	const loaded: Candidate[] = [];
	for (const candidate of sorted) {
		const real = await realpath(candidate.file).catch(() => candidate.file);
		if (!seen.has(real)) {
			seen.add(real);
			if (candidate.enabled) {
				loaded.push(candidate);
			}
		}
	}
	return loaded;
}

/** One copy per package folder, identified by its package.json; other packages are left out. */
async function identifyCopies(loaded: readonly Candidate[], log: DetectionLog): Promise<InstalledCopy[]> {
	const copies: InstalledCopy[] = [];
	const roots = new Set<string>();
	for (const candidate of loaded) {
		const root = await realpath(candidate.root).catch(() => candidate.root);
		if (roots.has(root)) {
			continue;
		}
		roots.add(root);
		const copy = await identify(candidate, log);
		if (copy) {
			copies.push(copy);
		}
	}
	return copies;
}

async function identify(candidate: Candidate, log: DetectionLog): Promise<InstalledCopy | undefined> {
	const manifest = await readPackageJson(candidate.root);
	// Problems are worth a warning only where pi-condense is expected, not in every other extension.
	const expected = isPiCondenseName(basename(candidate.root)) || /pi-con(dense|text-prune)/.test(candidate.entry ?? '');
	if (manifest.kind === 'unreadable') {
		log.warn(expected ? { kind: 'unreadable-package-json', file: manifest.path, reason: manifest.reason } : undefined);
		return undefined;
	}
	if (manifest.kind === 'missing' || !isPiCondenseName(manifest.name)) {
		return undefined;
	}
	const version = typeof manifest.version === 'string' ? manifest.version : '';
	const copy = identifyCopy(manifest.name, version, {
		scope: candidate.scope,
		foundBy: candidate.foundBy,
		sourceKind: candidate.sourceKind,
		entry: candidate.entry,
		settingsFile: candidate.settingsFile,
		installPath: candidate.root,
		packageJsonPath: manifest.path,
	});
	if (!copy) {
		log.warn({ kind: 'unreadable-package-json', file: manifest.path, reason: `its version ${JSON.stringify(manifest.version ?? null)} is not a version` });
		return undefined;
	}
	if (candidate.pinned !== undefined && candidate.pinned !== version.replace(/^v/, '')) {
		log.warn({ kind: 'pinned-version-differs', copy, pinned: candidate.pinned });
	}
	return copy;
}

/** What the detection says of the Pi found (its folder is the loader's business). */
function installedPi({ name, version, packageJsonPath, foundBy }: FoundPi): InstalledPi {
	return { name, version, packageJsonPath, foundBy };
}

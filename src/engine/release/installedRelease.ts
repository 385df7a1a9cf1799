/**
 * Which pi-condense release the extension follows, as one plain value the node layer resolves and
 * the host and the CLI show: the copy Pi loads (or "not installed"), where it was found and why,
 * and what was odd on the way. Pure: `followRelease` only combines what the node layer found with
 * the user's override.
 */
import type { InstalledPi, PiNotFound } from './installedPi';
import type { PiCondenseName } from './packageSource';
import type { ReleaseOverride } from './releaseChoice';
import { matchRelease, releaseRules, type ReleaseMatch, type ReleaseRules, type ReleaseVersion } from './releases';

/** Pi's two setting scopes: the user's agent dir, or the project's `.pi` folder. */
export type CopyScope = 'user' | 'project';

/** How Pi reaches the copy: a `packages` entry, an `extensions` entry, or its extensions folder. */
export type FoundBy = 'packages' | 'extensions' | 'auto-discovery';

/** The kind of a `packages` source; `extensions` entries and auto-discovery are always local. */
export type SourceKind = 'npm' | 'git' | 'local';

/** One copy of pi-condense that Pi loads, identified by its package.json. */
export interface InstalledCopy {
	readonly name: PiCondenseName;
	/** `version` of its package.json, as written there. */
	readonly version: string;
	readonly match: ReleaseMatch;
	readonly scope: CopyScope;
	readonly foundBy: FoundBy;
	readonly sourceKind: SourceKind;
	/** The settings entry that names it (`npm:pi-condense@2.4.0`, `../pi-condense`); undefined for auto-discovery. */
	readonly entry: string | undefined;
	/** The settings.json holding that entry; undefined for auto-discovery. */
	readonly settingsFile: string | undefined;
	/** The package's folder. */
	readonly installPath: string;
	readonly packageJsonPath: string;
}

export type ReleaseWarning =
	/** Pi loads every copy; which one's tool and commands win is not known (spec §8 UNDETERMINED). */
	| { readonly kind: 'several-copies'; readonly followed: InstalledCopy; readonly others: readonly InstalledCopy[] }
	| { readonly kind: 'newer-than-known'; readonly copy: InstalledCopy; readonly followedAs: ReleaseVersion }
	/** A version this project has no rules for (older than pi-context-prune 1.3.1, or an unverified pi-context-prune). */
	| { readonly kind: 'uncovered-version'; readonly copy: InstalledCopy; readonly followedAs: ReleaseVersion }
	/** The entry pins one version and another is installed; Pi reinstalls the pinned one at its next start-up. */
	| { readonly kind: 'pinned-version-differs'; readonly copy: InstalledCopy; readonly pinned: string }
	/** An entry for pi-condense whose folder does not exist (yet): Pi installs npm and git sources at start-up. */
	| {
		readonly kind: 'configured-not-installed'; readonly entry: string; readonly settingsFile: string;
		readonly installPath: string; readonly sourceKind: SourceKind;
	}
	| { readonly kind: 'unreadable-package-json'; readonly file: string; readonly reason: string }
	| { readonly kind: 'unreadable-settings'; readonly file: string; readonly reason: string }
	/** trust.json has no decision for the project: its `.pi` settings are not followed until Pi trusts it. */
	| { readonly kind: 'trust-undetermined'; readonly projectDir: string; readonly trustFile: string; readonly reason: string }
	/** VS Code does not trust the workspace: no project's `.pi` settings are followed. */
	| { readonly kind: 'workspace-restricted'; readonly projectDir: string }
	/** The npmCommand names a package manager whose global folder cannot be known without running it. */
	| { readonly kind: 'global-root-not-looked-up'; readonly command: string; readonly settingsFile: string }
	/** trust.json distrusts the project: its `.pi` settings and extensions are ignored, as Pi does. */
	| { readonly kind: 'project-untrusted'; readonly projectDir: string; readonly decidedBy: string }
	/** `piCondense.release` holds something that is not a known release: it is ignored. */
	| { readonly kind: 'unknown-override'; readonly value: string };

/** What the node layer found, in Pi's precedence order (the first copy is the one followed). */
export interface ReleaseDetection {
	readonly copies: readonly InstalledCopy[];
	/** The Pi found on the machine (the one pi-condense runs in); undefined when none was found. */
	readonly pi?: InstalledPi;
	/** Where Pi was looked for, when none was found. */
	readonly piNotFound?: PiNotFound;
	/** The places looked at, for "not installed" and Show Status. */
	readonly searched: readonly string[];
	readonly warnings: readonly ReleaseWarning[];
}

export interface FollowedRelease {
	readonly kind: 'followed';
	readonly release: ReleaseVersion;
	readonly rules: ReleaseRules;
	/** How the release was decided: the followed copy's route, or the user's override. */
	readonly how: FoundBy | 'override';
	/** The copy Pi loads first; undefined only when an override is followed and none was found. */
	readonly installed: InstalledCopy | undefined;
	/** Set when the release comes from the setting or the flag rather than from `installed`. */
	readonly override: ReleaseOverride | undefined;
	/** The other copies Pi also loads, in precedence order. */
	readonly others: readonly InstalledCopy[];
	readonly searched: readonly string[];
	readonly warnings: readonly ReleaseWarning[];
	readonly pi?: InstalledPi;
	readonly piNotFound?: PiNotFound;
}

export interface NotInstalled {
	readonly kind: 'not-installed';
	readonly searched: readonly string[];
	readonly warnings: readonly ReleaseWarning[];
	readonly pi?: InstalledPi;
	readonly piNotFound?: PiNotFound;
}

export type ReleaseResolution = FollowedRelease | NotInstalled;

/** Identifies a copy from its package.json fields; undefined when the version is not a version. */
export function identifyCopy(
	name: PiCondenseName, version: string, place: Omit<InstalledCopy, 'name' | 'version' | 'match'>,
): InstalledCopy | undefined {
	const match = matchRelease(version);
	return match === undefined ? undefined : { name, version, match, ...place };
}

/** Combines what was found with the override: the override wins, else the first copy, else none. */
export function followRelease(detection: ReleaseDetection, override: ReleaseOverride | undefined): ReleaseResolution {
	const [first, ...others] = detection.copies;
	const warnings = [...detection.warnings, ...copyWarnings(first, others)];
	const pi = detection.pi ? { pi: detection.pi } : detection.piNotFound ? { piNotFound: detection.piNotFound } : {};
	const common = { others, searched: detection.searched, warnings, ...pi };
	if (override) {
		return { kind: 'followed', release: override.release, rules: releaseRules(override.release), how: 'override', installed: first, override, ...common };
	}
	if (!first) {
		return { kind: 'not-installed', searched: detection.searched, warnings, ...pi };
	}
	const release = first.match.release;
	return { kind: 'followed', release, rules: releaseRules(release), how: first.foundBy, installed: first, override: undefined, ...common };
}

/** The oldest version this project covers under the old name: the fork's last release before the rename. */
const OLDEST_COVERED = '1.3.1';

function copyWarnings(first: InstalledCopy | undefined, others: readonly InstalledCopy[]): ReleaseWarning[] {
	if (!first) {
		return [];
	}
	const warnings: ReleaseWarning[] = [];
	if (others.length > 0) {
		warnings.push({ kind: 'several-copies', followed: first, others });
	}
	if (first.match.kind === 'newer') {
		warnings.push({ kind: 'newer-than-known', copy: first, followedAs: first.match.release });
	}
	const covered = first.name === 'pi-condense'
		? first.match.kind !== 'older'
		: first.match.kind === 'older' && first.version.replace(/^v/, '').split(/[-+]/)[0] === OLDEST_COVERED;
	if (!covered) {
		warnings.push({ kind: 'uncovered-version', copy: first, followedAs: first.match.release });
	}
	return warnings;
}

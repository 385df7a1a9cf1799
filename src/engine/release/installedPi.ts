/**
 * Which Pi the user runs: the Pi package found on the machine (its package.json `name` and `version`),
 * and the texts that name it beside the pi-condense release (`Pi 1.6.0 · pi-condense 2.9.1`), say when it
 * is newer than the newest Pi this extension knows, and when a session was written by such a Pi. Pure.
 */
import coerce from 'semver/functions/coerce';
import gt from 'semver/functions/gt';
import { NEWEST_KNOWN_PI } from '../session/piVersions';
import type { SessionDiagnostic } from '../session/types';

/** Pi's package today, and its name up to 0.73 (frozen there). */
export const PI_PACKAGE_NAMES = ['@earendil-works/pi-coding-agent', '@mariozechner/pi-coding-agent'] as const;

export type PiPackageName = (typeof PI_PACKAGE_NAMES)[number];

export interface InstalledPi {
	readonly name: PiPackageName;
	readonly version: string;
	readonly packageJsonPath: string;
	/** `path`: the `pi` command on PATH; `npm-global`: npm's global folder (where `npm install -g` puts it). */
	readonly foundBy: 'path' | 'npm-global';
}

export function isPiPackageName(name: unknown): name is PiPackageName {
	return (PI_PACKAGE_NAMES as readonly unknown[]).includes(name);
}

/** `Pi 1.6.0`. */
export function piLabel(pi: InstalledPi): string {
	return `Pi ${pi.version.replace(/^v/, '')}`;
}

/** True when `version` is later than the newest Pi we know (pre-release and build tags ignored). */
export function isNewerThanKnownPi(version: string): boolean {
	const have = coerce(version);
	return have !== null && gt(have, NEWEST_KNOWN_PI);
}

/** Show Status's line about Pi itself, e.g. `Pi: 1.6.0 (@earendil-works/pi-coding-agent, ~/…/package.json, found by pi on PATH)`. */
export function piStatusLine(pi: InstalledPi | undefined, shorten: (path: string) => string): string {
	if (pi === undefined) {
		return 'Pi: not found (no pi command on PATH, and none in npm\'s global folder)';
	}
	const how = pi.foundBy === 'path' ? 'found by pi on PATH' : 'found in npm\'s global folder';
	const newer = isNewerThanKnownPi(pi.version) ? `; newer than Pi ${NEWEST_KNOWN_PI}, the newest Pi this extension knows: what it adds is shown with a warning` : '';
	return `Pi: ${pi.version.replace(/^v/, '')} (${pi.name}, ${shorten(pi.packageJsonPath)}, ${how}${newer})`;
}

/**
 * What to say when a session holds what only a Pi newer than the one we know writes (an unknown entry
 * type or message role, a newer format version); undefined otherwise.
 */
export function newerPiSessionText(diagnostics: readonly SessionDiagnostic[]): string | undefined {
	const newer = diagnostics.filter((diagnostic) => diagnostic.newerPi !== undefined);
	if (newer.length === 0) {
		return undefined;
	}
	const what = newer.map((diagnostic) => diagnostic.newerPi === 'version' ? 'a newer format version' : diagnostic.newerPi?.replace(/^(type|role):(.*)$/, (_all, kind: string, name: string) => `${kind === 'type' ? 'entry type' : 'message role'} "${name}"`));
	return `this session was written by a Pi newer than ${NEWEST_KNOWN_PI}, the newest Pi this extension knows (${what.join(', ')}; line ${newer[0]?.line ?? 0})`;
}

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
	/**
	 * `login-shell-path`: the `pi` command on the user's login shell's PATH (as a terminal finds it);
	 * `path`: on the extension host's own PATH; `npm-global`: npm's global folder (where `npm install -g` puts it).
	 */
	readonly foundBy: 'login-shell-path' | 'path' | 'npm-global';
}

/** The PATH of the user's login shell, as far as it is known. */
export type LoginShellState =
	| { readonly kind: 'read'; readonly shell: string; readonly folders: readonly string[] }
	| { readonly kind: 'unavailable'; readonly reason: string }
	| { readonly kind: 'pending' };

/** Why no Pi was found: where it was looked for. */
export interface PiNotFound {
	/** The folders of the extension host's own PATH. */
	readonly hostPath: readonly string[];
	readonly loginShell: LoginShellState;
	/** What was found instead, e.g. a `pi` that belongs to no Pi package; undefined when nothing was. */
	readonly detail: string | undefined;
}

const NOT_FOUND_ANYWHERE = 'no pi command on PATH, and none in npm\'s global folder';

/** The Pi command line's package, as the not-found text tells the user to install it. */
const PI_INSTALL_COMMAND = `npm install -g ${PI_PACKAGE_NAMES[0]}`;

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

/** How the Pi was found, e.g. `found by pi on your login shell's PATH`. */
export function piFoundByText(pi: InstalledPi): string {
	switch (pi.foundBy) {
		case 'login-shell-path': return 'found by pi on your login shell\'s PATH, as a terminal finds it';
		case 'path': return 'found by pi on VS Code\'s PATH';
		case 'npm-global': return 'found in npm\'s global folder';
	}
}

/** Pi's folder: where its package.json is. */
export function piFolder(pi: InstalledPi): string {
	return pi.packageJsonPath.replace(/[\\/]package\.json$/, '');
}

/** The status tooltip's line about Pi: `Pi 1.6.0 · ~/… · found by …`, or why none was found and what to do. */
export function piWhereLine(pi: InstalledPi | undefined, missing: PiNotFound | undefined, shorten: (path: string) => string): string {
	return pi === undefined ? `Pi not found: ${piNotFoundShort(missing)}` : `${piLabel(pi)} · ${shorten(piFolder(pi))} · ${piFoundByText(pi)}`;
}

/** The tooltip's reason: where Pi was looked for, without the folders (Show Status lists them, with what to do). */
function piNotFoundShort(missing: PiNotFound | undefined): string {
	if (missing === undefined) {
		return `${NOT_FOUND_ANYWHERE}.`;
	}
	const shell = missing.loginShell;
	const login = shell.kind === 'read' ? 'nor on your login shell\'s PATH'
		: shell.kind === 'pending' ? 'your login shell\'s PATH is still being read'
			: `your login shell's PATH was not read (${shell.reason})`;
	return `No pi command on VS Code's PATH, ${login}, and none in npm's global folder. Show Status lists the folders searched and what to do.`;
}

/** Show Status's line about Pi itself, e.g. `Pi: 1.6.0 (@earendil-works/pi-coding-agent, ~/…/package.json, found by pi on …)`. */
export function piStatusLine(pi: InstalledPi | undefined, shorten: (path: string) => string, missing?: PiNotFound): string {
	if (pi === undefined) {
		return missing === undefined ? `Pi: not found (${NOT_FOUND_ANYWHERE})` : `Pi: not found. ${piNotFoundText(missing, shorten)}`;
	}
	const newer = isNewerThanKnownPi(pi.version) ? `; newer than Pi ${NEWEST_KNOWN_PI}, the newest Pi this extension knows: what it adds is shown with a warning` : '';
	return `Pi: ${pi.version.replace(/^v/, '')} (${pi.name}, ${shorten(pi.packageJsonPath)}, ${piFoundByText(pi)}${newer})`;
}

/**
 * Why the extension host cannot see Pi, and how to make it: the PATH it has (VS Code started from a
 * desktop may not have the shell's), what the login shell said, and what to do.
 */
export function piNotFoundText(missing: PiNotFound | undefined, shorten: (path: string) => string): string {
	if (missing === undefined) {
		return `${NOT_FOUND_ANYWHERE}.`;
	}
	const pathText = (folders: readonly string[]): string => folders.length === 0 ? '(empty)' : folders.map(shorten).join(':');
	const shell = missing.loginShell;
	const login = shell.kind === 'read' ? `nor on your login shell's PATH (${shorten(shell.shell)} -l: ${pathText(shell.folders)})`
		: shell.kind === 'pending' ? 'your login shell\'s PATH is still being read'
			: `your login shell's PATH was not read (${shell.reason})`;
	const found = missing.detail === undefined ? '' : ` (${missing.detail})`;
	return `No pi command on VS Code's PATH (${pathText(missing.hostPath)})${found}, ${login}, and none in npm's global folder. `
		+ `Install Pi (${PI_INSTALL_COMMAND}), or add the folder that holds pi to PATH in your login shell's profile (~/.profile, ~/.zprofile or ~/.bash_profile) and reload VS Code, or start VS Code from a terminal where pi runs (code .).`;
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

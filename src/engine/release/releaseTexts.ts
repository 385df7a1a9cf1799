/**
 * The short texts that say which pi-condense release is followed: one line for the status-bar
 * tooltip and the CLI's `status`, a block for Show Status, and what to do when Pi has no
 * pi-condense. Pure: paths under `home` are shown as `~/…` when a home folder is given.
 */
import { piLabel, piStatusLine } from './installedPi';
import type { FollowedRelease, InstalledCopy, ReleaseResolution, ReleaseWarning } from './installedRelease';

export const INSTALL_COMMAND = 'pi install npm:pi-condense';

/**
 * e.g. `Pi 1.6.0 · pi-condense 2.9.1 (npm, ~/.pi/agent/npm/node_modules/pi-condense)`: the Pi found on
 * the machine (left out when none was found), then the release followed.
 */
export function releaseLine(resolution: ReleaseResolution, home?: string): string {
	const line = piCondenseLine(resolution, home);
	return resolution.pi ? `${piLabel(resolution.pi)} · ${line}` : line;
}

/** The release alone, for a surface that names Pi on a line of its own (the status tooltip). */
export function piCondenseLine(resolution: ReleaseResolution, home?: string): string {
	if (resolution.kind === 'not-installed') {
		return `pi-condense not installed in Pi (${INSTALL_COMMAND})`;
	}
	const more = resolution.others.length === 0 ? '' : `; +${resolution.others.length} more ${resolution.others.length === 1 ? 'copy' : 'copies'}`;
	if (resolution.override) {
		const installed = resolution.installed ? `installed: ${copyVersion(resolution.installed)}` : 'none found in Pi\'s settings';
		return `pi-condense ${resolution.release} (${overrideName(resolution)}; ${installed}${more})`;
	}
	const copy = resolution.installed as InstalledCopy;
	return `${copyVersion(copy)}${followedAs(resolution)} (${place(copy, home)}${more})`;
}

/** The lines of Show Status about Pi and the release, warnings included. */
export function releaseStatusLines(resolution: ReleaseResolution, home?: string): string[] {
	return [piStatusLine(resolution.pi, (path) => shorten(path, home), resolution.piNotFound), ...piCondenseStatusLines(resolution, home)];
}

function piCondenseStatusLines(resolution: ReleaseResolution, home?: string): string[] {
	if (resolution.kind === 'not-installed') {
		return [
			'pi-condense: not installed in Pi',
			...resolution.searched.map((where) => `  searched: ${shorten(where, home)}`),
			...resolution.warnings.map((warning) => `  warning: ${releaseWarningText(warning, home)}`),
			`  ${notInstalledText()}`,
		];
	}
	const lines = [`pi-condense release: ${resolution.release}${resolution.override ? ` (set by ${overrideName(resolution)})` : ''}`];
	const copy = resolution.installed;
	if (copy) {
		lines.push(
			`  installed: ${copyVersion(copy)}${resolution.override ? '' : followedAs(resolution)}`,
			`  found by: ${foundBy(copy, home)}`,
			`  folder: ${shorten(copy.installPath, home)}`,
			`  package.json: ${shorten(copy.packageJsonPath, home)}`,
		);
	} else {
		lines.push('  installed: none found in Pi\'s settings');
	}
	for (const other of resolution.others) {
		lines.push(`  also loaded: ${copyVersion(other)} (${place(other, home)})`);
	}
	for (const warning of resolution.warnings) {
		lines.push(`  warning: ${releaseWarningText(warning, home)}`);
	}
	return lines;
}

/** What "not installed" means for the user, and how to change it. */
export function notInstalledText(): string {
	return 'Pi has no pi-condense, so it sends the whole context and ignores pruning entries. '
		+ `Install it with \`${INSTALL_COMMAND}\` (add -l for this project only) and restart Pi. `
		+ 'If Pi loads it another way (pi -e), set the release by hand: piCondense.release in VS Code, --release on the command line.';
}

/** Why `now`, `compact` and auto-flush refuse without pi-condense, and how to install it. */
export function notInstalledFlushText(): string {
	return 'pruner: nothing flushed — pi-condense is not installed in Pi, so Pi never stubs anything and the entries would only add summaries to what it sends. '
		+ `Install it with \`${INSTALL_COMMAND}\` and restart Pi, then flush again.`;
}

export function releaseWarningText(warning: ReleaseWarning, home?: string): string {
	switch (warning.kind) {
		case 'several-copies':
			return `Pi loads ${warning.others.length + 1} copies of pi-condense; following ${copyVersion(warning.followed)} (${place(warning.followed, home)}), `
				+ 'the first by Pi\'s resource precedence. Which copy\'s tool wins inside Pi is a guess: keep one.';
		case 'newer-than-known':
			return `${copyVersion(warning.copy)} is newer than the newest release this extension knows; it is followed as ${warning.followedAs}, which may differ from what it sends.`;
		case 'uncovered-version':
			return `${copyVersion(warning.copy)} is not a release this extension covers; it is followed as ${warning.followedAs}, a guess.`;
		case 'pinned-version-differs':
			return `${shorten(warning.copy.settingsFile ?? '', home)} pins ${warning.copy.entry ?? ''} but ${warning.copy.version} is installed; `
				+ `following ${warning.copy.version} until Pi installs ${warning.pinned} `
				+ (warning.copy.sourceKind === 'git' ? '(pi update moves a pinned clone).' : '(at its next start-up).');
		case 'configured-not-installed':
			return `${shorten(warning.settingsFile, home)} lists ${warning.entry} but there is nothing at ${shorten(warning.installPath, home)}`
				+ (warning.sourceKind === 'local' ? '.' : ' yet (Pi installs it at its next start-up).');
		case 'unreadable-package-json':
			return `${shorten(warning.file, home)} cannot be read: ${warning.reason}`;
		case 'unreadable-settings':
			return `${shorten(warning.file, home)} cannot be read (${warning.reason}); Pi ignores it too.`;
		case 'trust-undetermined':
			return `${shorten(warning.trustFile, home)} has no decision for ${shorten(warning.projectDir, home)} (${warning.reason}): `
				+ 'its .pi settings are not followed until Pi trusts the project (Pi asks when it starts there).';
		case 'workspace-restricted':
			return `VS Code does not trust this workspace: the .pi settings of ${shorten(warning.projectDir, home)} are not followed. Trust the workspace to follow them.`;
		case 'global-root-not-looked-up':
			return `${shorten(warning.settingsFile, home)} sets npmCommand ${JSON.stringify(warning.command)}; Pi Condense runs no command a settings file names, `
				+ 'so it does not know that package manager\'s global folder and looks in the agent dir\'s npm folder only. '
				+ 'If Pi loads pi-condense from there, choose the release by hand: piCondense.release in VS Code, --release on the command line.';
		case 'project-untrusted':
			return `${shorten(warning.projectDir, home)} is not trusted (entry ${shorten(warning.decidedBy, home)} in trust.json): its .pi settings and extensions are ignored, as Pi ignores them.`;
		case 'unknown-override':
			return `piCondense.release is ${JSON.stringify(warning.value)}, which is not a known release: ignored (following the installed copy).`;
	}
}

function copyVersion(copy: InstalledCopy): string {
	return `${copy.name} ${copy.version}`;
}

function followedAs(resolution: FollowedRelease): string {
	const match = resolution.installed?.match;
	return match && match.kind !== 'known' ? ` as ${resolution.release}` : '';
}

function overrideName(resolution: FollowedRelease): string {
	return resolution.override?.origin === 'flag' ? '--release' : 'piCondense.release';
}

/** `npm, ~/…`, `project git, …`, `extensions, …`, `auto-discovered, …`. */
function place(copy: InstalledCopy, home: string | undefined): string {
	const how = copy.foundBy === 'packages' ? (copy.sourceKind === 'local' ? 'local path' : copy.sourceKind)
		: copy.foundBy === 'extensions' ? 'extensions' : 'auto-discovered';
	return `${copy.scope === 'project' ? 'project ' : ''}${how}, ${shorten(copy.installPath, home)}`;
}

function foundBy(copy: InstalledCopy, home: string | undefined): string {
	const scope = copy.scope === 'project' ? 'project' : 'user';
	if (copy.foundBy === 'auto-discovery') {
		return `${scope} extensions folder (auto-discovery)`;
	}
	const key = copy.foundBy === 'packages' ? `packages entry (${copy.sourceKind})` : 'extensions entry';
	return `${scope} ${key} ${JSON.stringify(copy.entry ?? '')} in ${shorten(copy.settingsFile ?? '', home)}`;
}

/** `~/x` for a path under the home folder; paths elsewhere unchanged. */
export function shorten(path: string, home: string | undefined): string {
	if (!home || home === '/' || home === '\\') {
		return path;
	}
	const trimmed = home.replace(/[\\/]+$/, '');
	if (path === trimmed) {
		return '~';
	}
	const next = path.charAt(trimmed.length);
	return path.startsWith(trimmed) && (next === '/' || next === '\\') ? `~${path.slice(trimmed.length)}` : path;
}

/**
 * Pi's package sources (`packages` entries in settings.json) parsed as Pi's package manager parses
 * them (pi-coding-agent 0.73.1 `parseSource`, 0.83 where it differs; spec §8). Pure string work:
 * where a source is installed is decided in `src/node/release`.
 *
 * - `npm:<spec>`: a name (optional leading `@scope/`) and an optional version after the next `@`;
 * - `git:` followed by shorthand (`github.com/u/r@ref`, `git@host:u/r@ref`), or a protocol URL
 *   (`https://`, `http://`, `ssh://`, `git://`) with an optional `@ref`; the ref is not part of the
 *   install path;
 * - anything else is a local path, bare names included (`"pi-condense"` is a folder name to Pi).
 */

export type PackageSource =
	| {
		readonly type: 'npm';
		readonly name: string;
		/** The text after the name's `@`, as written (`2.4.0`, `^2.4.0`, `latest`); undefined when none. */
		readonly version: string | undefined;
	}
	| {
		readonly type: 'git';
		readonly host: string;
		/** `user/repo`, without a trailing `.git`. */
		readonly path: string;
		readonly ref: string | undefined;
	}
	| { readonly type: 'local'; readonly path: string };

/** The package names pi-condense has been published under: the current one and the fork's old one. */
export const PI_CONDENSE_NAMES = ['pi-condense', 'pi-context-prune'] as const;
export type PiCondenseName = typeof PI_CONDENSE_NAMES[number];

export function isPiCondenseName(name: unknown): name is PiCondenseName {
	return typeof name === 'string' && (PI_CONDENSE_NAMES as readonly string[]).includes(name);
}

/** Hosts whose repositories are always `user/project` (hosted-git-info's list, which Pi uses). */
const HOSTED = new Set(['github.com', 'gitlab.com', 'bitbucket.org', 'gist.github.com', 'git.sr.ht']);

const PROTOCOL_URL = /^(https?|ssh|git):\/\//i;

export function parsePackageSource(text: string): PackageSource {
	const trimmed = text.trim();
	if (trimmed.startsWith('npm:')) {
		return parseNpm(trimmed.slice('npm:'.length).trim());
	}
	if (trimmed.startsWith('git:') || PROTOCOL_URL.test(trimmed)) {
		const git = parseGit(trimmed);
		if (git) {
			return git;
		}
	}
	// Pi treats every other string as a path, including `github:u/r` and bare package names.
	return { type: 'local', path: text };
}

function parseNpm(spec: string): PackageSource {
	const match = /^(@?[^@]+(?:\/[^@]+)?)(?:@(.+))?$/.exec(spec);
	return { type: 'npm', name: match?.[1] ?? spec, version: match?.[2] };
}

function parseGit(source: string): PackageSource | undefined {
	// `git://host/path` is a protocol URL, not the `git:` prefix followed by `//host/path`.
	const url = source.startsWith('git:') && !PROTOCOL_URL.test(source) ? source.slice(4).trim() : source;
	const scp = /^git@([^:/]+):(.+)$/.exec(url);
	let host: string;
	let rest: string;
	if (scp) {
		host = scp[1] ?? '';
		rest = scp[2] ?? '';
	} else if (PROTOCOL_URL.test(url)) {
		const afterScheme = url.slice(url.indexOf('://') + 3);
		const slash = afterScheme.indexOf('/');
		if (slash < 0) {
			return undefined;
		}
		// Drop `user@` and `:port` from the authority.
		host = afterScheme.slice(0, slash).replace(/^[^@]*@/, '').replace(/:\d*$/, '');
		rest = afterScheme.slice(slash + 1);
	} else {
		const slash = url.indexOf('/');
		if (slash < 0) {
			return undefined;
		}
		host = url.slice(0, slash);
		rest = url.slice(slash + 1);
		if (!host.includes('.') && host !== 'localhost') {
			return undefined;
		}
	}
	const at = rest.indexOf('@');
	const ref = at < 0 ? undefined : rest.slice(at + 1) || undefined;
	const segments = (at < 0 ? rest : rest.slice(0, at)).replace(/^\/+/, '').replace(/\/+$/, '').split('/');
	const kept = HOSTED.has(host.toLowerCase()) ? segments.slice(0, 2) : segments;
	const path = kept.join('/').replace(/\.git$/, '');
	if (!host || path.split('/').filter(Boolean).length < 2) {
		return undefined;
	}
	return { type: 'git', host, path, ref };
}

/**
 * An exact version that an npm spec or a git ref pins (`2.4.0`, `v2.4.0` for a tag), or undefined
 * for a range, a dist-tag, a branch or a commit: only an exact version can be compared with what is
 * installed.
 */
export function pinnedVersion(source: PackageSource): string | undefined {
	const text = source.type === 'npm' ? source.version : source.type === 'git' ? source.ref : undefined;
	const match = text === undefined ? null : /^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/.exec(text.trim());
	return match?.[1];
}

/** Whether an entry names pi-condense itself (by npm name or by the repository's last segment). */
export function namesPiCondense(source: PackageSource): boolean {
	if (source.type === 'npm') {
		return isPiCondenseName(source.name);
	}
	const last = source.path.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? '';
	return isPiCondenseName(last.replace(/\.git$/, ''));
}

/**
 * npm's global prefix, worked out the way npm's own configuration does it (`@npmcli/config`), from
 * files and the environment alone: no npm is run. Highest first:
 *   1. `npm_config_prefix` in the environment (any letter case, as npm reads it);
 *   2. `prefix` in the user npmrc (`npm_config_userconfig`, else `~/.npmrc`);
 *   3. `prefix` in the global npmrc (`npm_config_globalconfig`, else `<prefix so far>/etc/npmrc`);
 *   4. `prefix` in npm's built-in npmrc (`<npm's package folder>/npmrc`: Homebrew and the Windows
 *      installer put theirs there);
 *   5. the default: `$PREFIX`, else the folder above the `node` npm runs on (`<prefix>/bin/node`;
 *      on Windows the folder of `node.exe`).
 * A project's own `.npmrc` can also move it when npm runs inside that project; we never read one,
 * because a project is not allowed to pick where we look.
 */
import { readFile, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { Environment } from '../paths/agentDir';
import { findExecutableOnPath } from '../paths/executableOnPath';

export interface NpmPrefixInputs {
	readonly env: Environment;
	readonly platform: NodeJS.Platform;
	/** npm's home folder (`os.homedir()`), for `~/.npmrc` and `~/` in values. */
	readonly home: string;
}

export interface NpmPrefix {
	readonly prefix: string;
	/** Where the answer came from, for the detection's report. */
	readonly from: string;
}

/** The global prefix npm would use, or undefined when neither npm's files nor a `node` on the PATH tell. */
export async function npmGlobalPrefix(inputs: NpmPrefixInputs): Promise<NpmPrefix | undefined> {
	const fromEnv = npmEnv(inputs.env, 'prefix');
	if (fromEnv !== undefined) {
		const prefix = configPath(fromEnv, inputs);
		return prefix === undefined ? undefined : { prefix, from: 'npm_config_prefix' };
	}
	const install = await npmInstall(inputs);
	const builtin = install?.npmDir === undefined ? undefined : await npmrcPrefix(join(install.npmDir, 'npmrc'), inputs);
	const userFile = configPath(npmEnv(inputs.env, 'userconfig') ?? '~/.npmrc', inputs);
	const user = userFile === undefined ? undefined : await npmrcPrefix(userFile, inputs);
	if (user !== undefined) {
		return user;
	}
	const soFar = builtin?.prefix ?? install?.defaultPrefix;
	const globalFile = configPath(npmEnv(inputs.env, 'globalconfig') ?? (soFar === undefined ? '' : join(soFar, 'etc', 'npmrc')), inputs);
	const global = globalFile === undefined ? undefined : await npmrcPrefix(globalFile, inputs);
	if (global !== undefined || builtin !== undefined) {
		return global ?? builtin;
	}
	return install?.defaultPrefix === undefined ? undefined : { prefix: install.defaultPrefix, from: install.defaultFrom };
}

/** The global `node_modules` under a prefix (`npm root -g`). */
export function globalModulesOf(prefix: string, platform: NodeJS.Platform): string {
	return platform === 'win32' ? join(prefix, 'node_modules') : join(prefix, 'lib', 'node_modules');
}

/** An `npm_config_<key>` variable, in any letter case; empty counts as unset, as in npm. */
function npmEnv(env: Environment, key: string): string | undefined {
	const wanted = `npm_config_${key}`;
	for (const [name, value] of Object.entries(env)) {
		if (name.toLowerCase() === wanted && value !== undefined && value !== '') {
			return value;
		}
	}
	return undefined;
}

interface NpmInstall {
	/** npm's own package folder, holding its built-in `npmrc`. */
	readonly npmDir: string | undefined;
	readonly defaultPrefix: string | undefined;
	readonly defaultFrom: string;
}

/** The npm and node a terminal would run: found on the PATH, symlinks followed. */
async function npmInstall(inputs: NpmPrefixInputs): Promise<NpmInstall | undefined> {
	const node = await realOnPath('node', inputs);
	const npm = await realOnPath('npm', inputs);
	const npmDir = npm === undefined ? undefined : npmPackageDir(npm, node, inputs.platform);
	const envPrefix = inputs.env['PREFIX'];
	if (envPrefix) {
		return { npmDir, defaultPrefix: envPrefix, defaultFrom: '$PREFIX' };
	}
	if (node === undefined) {
		return npmDir === undefined ? undefined : { npmDir, defaultPrefix: undefined, defaultFrom: '' };
	}
	const prefix = inputs.platform === 'win32' ? dirname(node) : dirname(dirname(node));
	const destDir = inputs.platform === 'win32' ? undefined : inputs.env['DESTDIR'];
	return { npmDir, defaultPrefix: destDir ? join(destDir, prefix) : prefix, defaultFrom: `the node on the PATH (${node})` };
}

async function realOnPath(name: string, inputs: NpmPrefixInputs): Promise<string | undefined> {
	const found = await findExecutableOnPath(name, inputs.env, inputs.platform);
	return found === undefined ? undefined : realpath(found).catch(() => found);
}

/** `<dir>/bin/npm-cli.js` resolves to npm's package; a Windows `npm.cmd` sits beside node. */
function npmPackageDir(npm: string, node: string | undefined, platform: NodeJS.Platform): string | undefined {
	if (basename(npm) === 'npm-cli.js' && basename(dirname(npm)) === 'bin') {
		return dirname(dirname(npm));
	}
	return platform === 'win32' && node !== undefined ? join(dirname(node), 'node_modules', 'npm') : undefined;
}

async function npmrcPrefix(file: string, inputs: NpmPrefixInputs): Promise<NpmPrefix | undefined> {
	let text: string;
	try {
		text = await readFile(file, 'utf8');
	} catch {
		return undefined;
	}
	const value = topLevelValue(text, 'prefix');
	const prefix = value === undefined ? undefined : configPath(value, inputs);
	return prefix === undefined ? undefined : { prefix, from: file };
}

/**
 * A top-level `key = value` of an npmrc (ini): before any `[section]`, the last one winning, quotes
 * removed, an unquoted value cut at a `;` or `#` comment.
 */
export function topLevelValue(text: string, key: string): string | undefined {
	let found: string | undefined;
	for (const rawLine of text.split(/\r?\n/)) {
		const line = rawLine.trim();
		if (line.startsWith('[')) {
			break;
		}
		const equals = line.indexOf('=');
		if (line === '' || line.startsWith(';') || line.startsWith('#') || equals < 0 || line.slice(0, equals).trim() !== key) {
			continue;
		}
		found = unquote(line.slice(equals + 1).trim());
	}
	return found;
}

function unquote(value: string): string {
	const quote = value[0];
	if ((quote === '"' || quote === '\'') && value.length > 1 && value.endsWith(quote)) {
		return value.slice(1, -1);
	}
	const comment = value.search(/\s[;#]/);
	return (comment < 0 ? value : value.slice(0, comment)).trim();
}

/**
 * A path value as npm reads it: `${NAME}` replaced from the environment (an unset one makes the
 * value unusable, as npm refuses it), a leading `~/` from the home folder; only absolute paths count.
 */
function configPath(value: string, inputs: NpmPrefixInputs): string | undefined {
	let unset = false;
	const replaced = value.replace(/(\\*)\$\{([^}]+)\}/g, (match: string, slashes: string, name: string) => {
		if (slashes.length % 2 === 1) {
			return match.slice((slashes.length + 1) / 2);
		}
		const found = inputs.env[name];
		unset ||= found === undefined;
		return slashes.slice(slashes.length / 2) + (found ?? '');
	});
	const path = replaced === '~' ? inputs.home : replaced.startsWith('~/') || replaced.startsWith('~\\') ? join(inputs.home, replaced.slice(2)) : replaced;
	return !unset && path !== '' && isAbsolute(path) ? path : undefined;
}

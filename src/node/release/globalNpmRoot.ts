/**
 * npm's global `node_modules` folder, where Pi 0.73 installs user-scope npm packages and where Pi
 * 0.83 still looks when `<agentDir>/npm/node_modules/<name>` does not exist (its legacy fallback).
 *
 * Pi asks `npm root -g` (or `<npmCommand> root -g`; `bun pm bin -g` for bun). We never run it per
 * resolve: only when a user-scope npm entry is not under the agent dir, then once per process and
 * npm command (the answer, or the failure, is kept). Before that, `npm_config_prefix` in the
 * environment gives the answer for free, as npm itself would; when npm cannot be run, the layout
 * around a `node` executable (`<prefix>/bin/node` → `<prefix>/lib/node_modules`) is a last guess.
 * Inside VS Code `process.execPath` is the editor, not node, so that guess only helps the CLI.
 */
import { execFile } from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { Environment } from '../paths/agentDir';

export type GlobalNpmRoot = ((npmCommand: readonly string[] | undefined) => Promise<string | undefined>) & {
	/** The answer when it costs no process (the environment says it, or npm was already asked); else undefined. */
	readonly known?: (npmCommand: readonly string[] | undefined) => Promise<string | undefined> | undefined;
};

export interface GlobalNpmRootOptions {
	readonly env: Environment;
	readonly platform: NodeJS.Platform;
	readonly execPath: string;
	/** Runs a command and resolves with its standard output. */
	readonly run?: (command: string, args: readonly string[]) => Promise<string>;
}

const TIMEOUT_MS = 10_000;

export function globalNpmRootFinder(options: GlobalNpmRootOptions): GlobalNpmRoot {
	const run = options.run ?? ((command, args) => runCommand(command, args, options.platform));
	const answers = new Map<string, Promise<string | undefined>>();
	const fromEnvironment = (npmCommand: readonly string[] | undefined): Promise<string | undefined> | undefined => {
		const command = npmCommand?.[0] ?? 'npm';
		const prefix = command === 'npm' ? options.env.npm_config_prefix ?? options.env.NPM_CONFIG_PREFIX : undefined;
		return prefix ? Promise.resolve(options.platform === 'win32' ? join(prefix, 'node_modules') : join(prefix, 'lib', 'node_modules')) : undefined;
	};
	const keyOf = (npmCommand: readonly string[] | undefined): string => (npmCommand?.length ? npmCommand : ['npm']).join('\0');
	const root = (npmCommand: readonly string[] | undefined): Promise<string | undefined> => {
		const known = fromEnvironment(npmCommand);
		if (known) {
			return known;
		}
		const [command = 'npm', ...prefixArgs] = npmCommand ?? [];
		const key = keyOf(npmCommand);
		let answer = answers.get(key);
		if (!answer) {
			answer = ask(run, command, prefixArgs).catch(() => fromExecPath(options.execPath, options.platform));
			answers.set(key, answer);
		}
		return answer;
	};
	return Object.assign(root, { known: (npmCommand: readonly string[] | undefined) => fromEnvironment(npmCommand) ?? answers.get(keyOf(npmCommand)) });
}

async function ask(run: (command: string, args: readonly string[]) => Promise<string>, command: string, prefixArgs: readonly string[]): Promise<string | undefined> {
	if (basename(command).replace(/\.(cmd|exe)$/i, '') === 'bun') {
		const bin = (await run(command, [...prefixArgs, 'pm', 'bin', '-g'])).trim();
		return bin ? join(dirname(bin), 'install', 'global', 'node_modules') : undefined;
	}
	const root = (await run(command, [...prefixArgs, 'root', '-g'])).trim();
	return root || undefined;
}

function fromExecPath(execPath: string, platform: NodeJS.Platform): string | undefined {
	if (!/^node(\.exe)?$/i.test(basename(execPath))) {
		return undefined;
	}
	return platform === 'win32' ? join(dirname(execPath), 'node_modules') : join(dirname(dirname(execPath)), 'lib', 'node_modules');
}

async function runCommand(command: string, args: readonly string[], platform: NodeJS.Platform): Promise<string> {
	// npm is a .cmd script on Windows, which only a shell can start.
	const { stdout } = await promisify(execFile)(command, [...args], { timeout: TIMEOUT_MS, windowsHide: true, shell: platform === 'win32', encoding: 'utf8' });
	return stdout;
}

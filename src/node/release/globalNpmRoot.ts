/**
 * The global `node_modules` folder of the package manager Pi uses, where Pi 0.73 installs user-scope
 * npm packages and where later Pi still looks when `<agentDir>/npm/node_modules/<name>` does not
 * exist (its legacy fallback). Only user-scope packages are looked for there.
 *
 * Pi asks `<npmCommand> root -g` (`bun pm bin -g` for bun). We start no process to learn it: the
 * npmCommand comes from a settings file, and reading where a package is must never run what a
 * settings file (or a project, or a session naming that project) says. npm's answer is worked out
 * from npm's own configuration (`npmPrefix.ts`), bun's from its environment variables; for any
 * other npmCommand there is no answer, and the detection says so. Each answer is kept for the life
 * of the finder.
 */
import { basename, dirname, join } from 'node:path';
import type { Environment } from '../paths/agentDir';
import { globalModulesOf, npmGlobalPrefix } from './npmPrefix';

export type GlobalNpmRootAnswer =
	| { readonly kind: 'found'; readonly root: string; readonly from: string }
	/** npm or bun, but nothing tells where its global folder is. */
	| { readonly kind: 'unknown' }
	/** A package manager we cannot read without running it. */
	| { readonly kind: 'not-looked-up'; readonly command: string };

export type GlobalNpmRoot = (npmCommand: readonly string[] | undefined) => Promise<GlobalNpmRootAnswer>;

export interface GlobalNpmRootOptions {
	readonly env: Environment;
	readonly platform: NodeJS.Platform;
	/** npm's and bun's home folder (`os.homedir()`). */
	readonly home: string;
}

export function globalNpmRootFinder(options: GlobalNpmRootOptions): GlobalNpmRoot {
	const answers = new Map<string, Promise<GlobalNpmRootAnswer>>();
	return (npmCommand) => {
		const command = packageManagerOf(npmCommand);
		let answer = answers.get(command);
		if (!answer) {
			answer = command === 'npm' ? npmRoot(options) : command === 'bun' ? Promise.resolve(bunRoot(options)) : Promise.resolve({ kind: 'not-looked-up', command });
			answers.set(command, answer);
		}
		return answer;
	};
}

/** `npm` or `bun` when the npmCommand is one of them (a path to one counts); else the command as written. */
function packageManagerOf(npmCommand: readonly string[] | undefined): string {
	const [command = 'npm', ...rest] = npmCommand ?? [];
	const name = basename(command).replace(/\.(cmd|exe)$/i, '').toLowerCase();
	return (name === 'npm' || name === 'bun') && rest.length === 0 ? name : [command, ...rest].join(' ');
}

async function npmRoot(options: GlobalNpmRootOptions): Promise<GlobalNpmRootAnswer> {
	const found = await npmGlobalPrefix(options);
	return found ? { kind: 'found', root: globalModulesOf(found.prefix, options.platform), from: found.from } : { kind: 'unknown' };
}

/** Where `bun pm bin -g` points (`$BUN_INSTALL_BIN`, else `$BUN_INSTALL/bin`, else `~/.bun/bin`), as Pi reads it. */
function bunRoot(options: GlobalNpmRootOptions): GlobalNpmRootAnswer {
	const install = options.env['BUN_INSTALL'] || join(options.home, '.bun');
	const bin = options.env['BUN_INSTALL_BIN'] || join(install, 'bin');
	return { kind: 'found', root: join(dirname(bin), 'install', 'global', 'node_modules'), from: bin };
}

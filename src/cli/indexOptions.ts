/**
 * The command line's session-index options, taken out of the arguments before the rest is read:
 * `--index <path>` (another index file), `--no-index` (read the session files, keep nothing), and
 * `$PI_CONDENSE_INDEX` (a path, or `off`) for scripts. The default is the user's index in the
 * cache folder (`docs/session-index.md`).
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { defaultIndexPath } from '../node/history/indexLocation';
import { UsageError } from './cliArgs';

export type IndexChoice =
	| { readonly kind: 'off' }
	/** `ownFolder`: the default place (its folder is ours and kept private). */
	| { readonly kind: 'file'; readonly path: string; readonly ownFolder: boolean };

export const INDEX_ENV = 'PI_CONDENSE_INDEX';

export const INDEX_USAGE = `History (the session index, see docs/session-index.md):
  search <words>    the sessions and messages where the words occur, best
                    first (--json: as data; --limit N: at most N sessions)

  list, --latest and id prefixes answer from the session index, built or
  brought up to date first (progress on stderr when it is a terminal).
  --index PATH      use this index file instead of the one in the user's
                    cache folder ($${INDEX_ENV} too)
  --no-index        read the session files and keep no index
                    (${INDEX_ENV}=off too)`;

/** Takes `--index` and `--no-index` out of `argv`. */
export function takeIndexOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): { readonly index: IndexChoice; readonly rest: string[] } {
	const rest: string[] = [];
	let path: string | undefined;
	let off = false;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] as string;
		if (arg === '--') {
			rest.push(...argv.slice(i));
			break;
		}
		if (arg === '--no-index') {
			off = true;
		} else if (arg === '--index') {
			const value = argv[i + 1];
			if (value === undefined || value.startsWith('-') || value === '') {
				throw new UsageError('--index needs the path of an index file');
			}
			path = value;
			i++;
		} else if (arg.startsWith('--index=')) {
			path = arg.slice('--index='.length);
			if (path === '') {
				throw new UsageError('--index needs the path of an index file');
			}
		} else {
			rest.push(arg);
		}
	}
	if (off && path !== undefined) {
		throw new UsageError('--index and --no-index do not go together');
	}
	return { index: off ? { kind: 'off' } : choiceOf(path, env), rest };
}

function choiceOf(path: string | undefined, env: NodeJS.ProcessEnv): IndexChoice {
	const fromEnv = env[INDEX_ENV] === '' ? undefined : env[INDEX_ENV];
	if (path === undefined && fromEnv?.toLowerCase() === 'off') {
		return { kind: 'off' };
	}
	const named = path ?? fromEnv;
	if (named !== undefined) {
		return { kind: 'file', path: resolve(named), ownFolder: false };
	}
	return { kind: 'file', path: defaultIndexPath({ env, homedir: homedir(), platform: process.platform }), ownFolder: true };
}

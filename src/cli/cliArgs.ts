/**
 * Command-line arguments of `pi-condense <command> <session> [options]`, read with `node:util`
 * `parseArgs` (strict); the rules between commands and options are checked here. A session is a
 * file, the start of a session id, or `--latest` (`sessionCatalog.ts` finds it); `list` takes none.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { KNOWN_RELEASES, parseReleaseChoice, type ReleaseChoice } from '../engine/release';
import { errorMessage } from '../base/errorMessage';

export const COMMANDS = ['list', 'status', 'stats', 'tree', 'preview', 'query', 'costs', 'now', 'compact'] as const;
export type CliCommand = (typeof COMMANDS)[number];

/** The commands that write to the session. */
export const FLUSH_COMMANDS: readonly CliCommand[] = ['now', 'compact'];

/** The arguments once the session they name is found (`sessionCatalog.ts`). */
export type SessionArgs = CliArgs & { readonly sessionFile: string };

/** How the session was named: a path or an id prefix as typed, or `--latest`; `list` names none. */
export type SessionArgument = { readonly kind: 'named'; readonly value: string } | { readonly kind: 'latest' } | { readonly kind: 'none' };

export interface CliArgs {
	readonly command: CliCommand;
	readonly session: SessionArgument;
	/** Refs for `query`. */
	readonly refs: readonly string[];
	readonly json: boolean;
	readonly before: boolean;
	readonly agentDir: string | undefined;
	readonly configFile: string | undefined;
	/** `--release`: `auto` (also when absent) or the pi-condense release to follow instead of the installed one. */
	readonly release: ReleaseChoice;
	/** `now`/`compact`: how long the file must have been quiet (ms); undefined keeps the writer's default. */
	readonly quietMs: number | undefined;
	/** `now`: one summarizer call at a time. */
	readonly sequential: boolean;
	/** `costs --all`: every session Pi keeps instead of one. */
	readonly all: boolean;
}

export const USAGE = `Usage: pi-condense <command> <session> [options]
       pi-condense list [--json]
       pi-condense search <words> [--json] [--limit N]
       pi-condense costs --all [--json]
       pi-condense demo <agent-dir>

A session is a file (session.jsonl), the start of a session id (see list), or
--latest: the newest session of the current folder's project (else of all).

  list              the sessions Pi keeps, by project (this folder's first),
                    newest first: id, last activity, messages, title

Read-only commands (the texts are pi-condense's /pruner texts):
  status            the status line (prune: ON · 92.0k->14.0k (-85%), or
                    prune: 12 pending), the release, and what is pending
  stats             summarizer usage recorded in the session
  tree              summaries and the tool calls they pruned
  preview           the context the model is sent, human-readable
  preview --json    that context as a JSON array of Pi AgentMessages
  preview --json --before   Pi's own context, before pruning
  query <ref...>    the raw output behind tN refs, tool-call ids or alias ids
  costs [--json]    what its requests cost (as Pi recorded them), its cache
                    rebuilds, and what each prune cost and saved
  costs --all       the same over every session Pi keeps: by project and week,
                    the most expensive sessions, which settings paid back best

Commands that append to the session (only while Pi is not running on it):
  now               summarize the pending tool-call batches, then compress
                    closed chains beyond the rolling window (/pruner now)
  compact           compress every eligible closed chain (/pruner compact)

Demo:
  demo <agent-dir>  write demo sessions (and demo contextPrune settings when the
                    agent dir has none) into a Pi agent directory

Options:
  --agent-dir DIR   Pi agent directory whose settings.json holds contextPrune,
                    auth.json and models.json
                    (default: $PI_CODING_AGENT_DIR, else ~/.pi/agent)
  --config FILE     read the contextPrune configuration from this JSON file
  --release X.Y.Z   follow this pi-condense release (2.0.0 to 2.9.1) instead of
                    the one Pi loads; auto (the default) finds it in Pi's settings
  --quiet-ms MS     now/compact: the file must not have changed for MS
                    milliseconds (default 3000; 0 skips the check)
  --sequential      now: one summarizer call at a time
  --latest          the newest session instead of naming one
  --version         print the version
  --help            show this help

Exit codes: 0 done or nothing to do, 1 refused, failed or interrupted,
2 bad usage or an unreadable file.`;

export class UsageError extends Error {}

const OPTIONS = {
	json: { type: 'boolean' },
	latest: { type: 'boolean' },
	before: { type: 'boolean' },
	sequential: { type: 'boolean' },
	all: { type: 'boolean' },
	'quiet-ms': { type: 'string' },
	release: { type: 'string' },
	'agent-dir': { type: 'string' },
	config: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export function parseCliArgs(argv: readonly string[]): CliArgs {
	const { values, positionals } = parseStrictly(argv);
	const json = values.json ?? false;
	const before = values.before ?? false;
	const sequential = values.sequential ?? false;
	const quietMs = values['quiet-ms'] === undefined ? undefined : quietMsOf(values['quiet-ms']);
	const release = values.release === undefined ? 'auto' : releaseOf(values.release);
	const agentDir = nonEmpty('--agent-dir', values['agent-dir']);
	const configFile = nonEmpty('--config', values.config);
	const latest = values.latest ?? false;
	const all = values.all ?? false;
	const [command, ...rest] = positionals;
	if (command === undefined || !COMMANDS.includes(command as CliCommand)) {
		throw new UsageError(command === undefined ? 'missing command' : `unknown command "${command}"`);
	}
	if (all && command !== 'costs') {
		throw new UsageError('--all only applies to costs');
	}
	const session = all ? allSessions(rest, latest) : sessionArgument(command as CliCommand, rest, latest);
	const refs = session.kind === 'named' ? rest.slice(1) : rest;
	if (command === 'query' ? refs.length === 0 : refs.length > 0) {
		throw new UsageError(command === 'query' ? 'query needs at least one ref' : `unexpected argument "${refs[0]}"`);
	}
	if ((json || before) && command !== 'preview' && !(json && (command === 'list' || command === 'costs'))) {
		throw new UsageError('--json only applies to preview, list and costs, --before only to preview');
	}
	if (before && !json) {
		throw new UsageError('--before needs --json');
	}
	const flush = FLUSH_COMMANDS.includes(command as CliCommand);
	if (quietMs !== undefined && !flush) {
		throw new UsageError('--quiet-ms only applies to now and compact');
	}
	if (sequential && command !== 'now') {
		throw new UsageError('--sequential only applies to now');
	}
	return { command: command as CliCommand, session, refs, json, before, agentDir, configFile, release, quietMs, sequential, all };
}

/** `costs --all` names no session. */
function allSessions(rest: readonly string[], latest: boolean): SessionArgument {
	if (latest || rest.length > 0) {
		throw new UsageError('costs --all takes no session');
	}
	return { kind: 'none' };
}

/** `list` names no session; the others one: the first argument, or `--latest` (then every argument is a ref). */
function sessionArgument(command: CliCommand, rest: readonly string[], latest: boolean): SessionArgument {
	if (command === 'list') {
		if (latest) {
			throw new UsageError('--latest does not apply to list');
		}
		return { kind: 'none' };
	}
	if (latest) {
		return { kind: 'latest' };
	}
	const value = rest[0];
	if (value === undefined) {
		throw new UsageError('missing session: a session file, the start of a session id, or --latest');
	}
	return { kind: 'named', value };
}

/**
 * `parseArgs` in strict mode. When it rejects the arguments, the tokens of a lenient pass say which
 * option was wrong, so the message is ours (and the same on every Node version).
 */
function parseStrictly(argv: readonly string[]): ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>> {
	try {
		return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
	} catch (error) {
		const { tokens } = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
		for (const token of tokens) {
			if (token.kind !== 'option') {
				continue;
			}
			const known: { readonly type: 'boolean' | 'string' } | undefined = Object.hasOwn(OPTIONS, token.name) ? OPTIONS[token.name as keyof typeof OPTIONS] : undefined;
			if (!known) {
				throw new UsageError(`unknown option ${token.rawName}`);
			}
			if (known.type === 'boolean' && token.value !== undefined) {
				throw new UsageError(`${token.rawName} takes no value`);
			}
			if (known.type === 'string' && (token.value === undefined || (token.inlineValue === false && token.value.startsWith('-')))) {
				throw new UsageError(missingValue(token.rawName));
			}
		}
		throw new UsageError(errorMessage(error));
	}
}

function missingValue(option: string): string {
	switch (option) {
		case '--quiet-ms':
			return '--quiet-ms needs a number of milliseconds';
		case '--release':
			return `--release needs a value: auto or one of ${KNOWN_RELEASES.join(', ')}`;
		default:
			return `${option} needs a value`;
	}
}

function quietMsOf(value: string): number {
	if (!/^\d+$/.test(value)) {
		throw new UsageError(missingValue('--quiet-ms'));
	}
	return Number(value);
}

function releaseOf(value: string): ReleaseChoice {
	const parsed = value.trim() === '' ? undefined : parseReleaseChoice(value);
	if (!parsed?.ok) {
		throw new UsageError(parsed ? `--release: ${parsed.message}` : missingValue('--release'));
	}
	return parsed.choice;
}

function nonEmpty(option: string, value: string | undefined): string | undefined {
	if (value === '') {
		throw new UsageError(missingValue(option));
	}
	return value;
}

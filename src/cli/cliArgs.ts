/**
 * Command-line arguments of `pi-condense <command> <session.jsonl> [options]`.
 */
import { KNOWN_RELEASES, parseReleaseChoice, type ReleaseChoice } from '../engine/release';

export const COMMANDS = ['status', 'stats', 'tree', 'preview', 'query', 'now', 'compact'] as const;
export type CliCommand = (typeof COMMANDS)[number];

/** The commands that write to the session. */
export const FLUSH_COMMANDS: readonly CliCommand[] = ['now', 'compact'];

export interface CliArgs {
	readonly command: CliCommand;
	readonly sessionFile: string;
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
}

export const USAGE = `Usage: pi-condense <command> <session.jsonl> [options]

Read-only commands (the texts are pi-condense's /pruner texts):
  status            the status line (prune: ON · 92.0k->14.0k (-85%))
  stats             summarizer usage recorded in the session
  tree              summaries and the tool calls they pruned
  preview           the context the model is sent, human-readable
  preview --json    that context as a JSON array of Pi AgentMessages
  preview --json --before   Pi's own context, before pruning
  query <ref...>    the raw output behind tN refs, tool-call ids or alias ids

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
  --help            show this help

Exit codes: 0 done or nothing to do, 1 refused, failed or interrupted,
2 bad usage or an unreadable file.`;

export class UsageError extends Error {}

export function parseCliArgs(argv: readonly string[]): CliArgs {
	const positional: string[] = [];
	let json = false;
	let before = false;
	let agentDir: string | undefined;
	let configFile: string | undefined;
	let release: ReleaseChoice = 'auto';
	let quietMs: number | undefined;
	let sequential = false;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] ?? '';
		if (arg === '--json') {
			json = true;
		} else if (arg === '--before') {
			before = true;
		} else if (arg === '--sequential') {
			sequential = true;
		} else if (arg === '--quiet-ms') {
			const value = argv[++i] ?? '';
			if (!/^\d+$/.test(value)) {
				throw new UsageError('--quiet-ms needs a number of milliseconds');
			}
			quietMs = Number(value);
		} else if (arg === '--release') {
			const value = argv[++i] ?? '';
			const parsed = value.trim() === '' ? undefined : parseReleaseChoice(value);
			if (!parsed?.ok) {
				throw new UsageError(parsed ? `--release: ${parsed.message}` : `--release needs a value: auto or one of ${KNOWN_RELEASES.join(', ')}`);
			}
			release = parsed.choice;
		} else if (arg === '--agent-dir' || arg === '--config') {
			const value = argv[++i];
			if (value === undefined || value === '') {
				throw new UsageError(`${arg} needs a value`);
			}
			if (arg === '--agent-dir') {
				agentDir = value;
			} else {
				configFile = value;
			}
		} else if (arg.startsWith('--')) {
			throw new UsageError(`unknown option ${arg}`);
		} else {
			positional.push(arg);
		}
	}
	const [command, sessionFile, ...refs] = positional;
	if (command === undefined || !COMMANDS.includes(command as CliCommand)) {
		throw new UsageError(command === undefined ? 'missing command' : `unknown command "${command}"`);
	}
	if (sessionFile === undefined) {
		throw new UsageError('missing session file');
	}
	if (command === 'query' ? refs.length === 0 : refs.length > 0) {
		throw new UsageError(command === 'query' ? 'query needs at least one ref' : `unexpected argument "${refs[0]}"`);
	}
	if ((json || before) && command !== 'preview') {
		throw new UsageError('--json and --before only apply to preview');
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
	return { command: command as CliCommand, sessionFile, refs, json, before, agentDir, configFile, release, quietMs, sequential };
}

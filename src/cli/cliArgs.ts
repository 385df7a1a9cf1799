/**
 * Command-line arguments of `pi-condense <command> <session.jsonl> [options]`.
 */

export const COMMANDS = ['status', 'stats', 'tree', 'preview', 'query'] as const;
export type CliCommand = (typeof COMMANDS)[number];

export interface CliArgs {
	readonly command: CliCommand;
	readonly sessionFile: string;
	/** Refs for `query`. */
	readonly refs: readonly string[];
	readonly json: boolean;
	readonly before: boolean;
	readonly agentDir: string | undefined;
	readonly configFile: string | undefined;
}

export const USAGE = `Usage: pi-condense <command> <session.jsonl> [options]

Commands (read-only; the texts are pi-condense's /pruner texts):
  status            the status line (prune: ON · 92.0k->14.0k (-85%))
  stats             summarizer usage recorded in the session
  tree              summaries and the tool calls they pruned
  preview           the context the model is sent, human-readable
  preview --json    that context as a JSON array of Pi AgentMessages
  preview --json --before   Pi's own context, before pruning
  query <ref...>    the raw output behind tN refs, tool-call ids or alias ids

Options:
  --agent-dir DIR   Pi agent directory whose settings.json holds contextPrune
                    (default: $PI_CODING_AGENT_DIR, else ~/.pi/agent)
  --config FILE     read the contextPrune configuration from this JSON file
  --help            show this help`;

export class UsageError extends Error {}

export function parseCliArgs(argv: readonly string[]): CliArgs {
	const positional: string[] = [];
	let json = false;
	let before = false;
	let agentDir: string | undefined;
	let configFile: string | undefined;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i] ?? '';
		if (arg === '--json') {
			json = true;
		} else if (arg === '--before') {
			before = true;
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
	return { command: command as CliCommand, sessionFile, refs, json, before, agentDir, configFile };
}

/**
 * Runs the built command line (`dist/cli.js`) on a mutant as a child process under a timeout, and
 * checks what a user would see: exit 0 (or 2 with a clear message for a file that is not a session),
 * never a stack trace, reading problems printed as `file:line:`, and valid JSON from `preview --json`.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../paths';

export const CLI_PATH = join(repoRoot, 'dist', 'cli.js');

const COMMANDS: readonly (readonly string[])[] = [['status'], ['stats'], ['tree'], ['preview'], ['preview', '--json'], ['query', 't1', 'call_x']];

export interface CliRunResult {
	readonly problems: readonly string[];
}

export interface CliOutput {
	readonly code: number | null;
	readonly signal: string | null;
	readonly stdout: string;
	readonly stderr: string;
	readonly timedOut: boolean;
}

/** Runs `node dist/cli.js ...args` with a timeout (SIGKILL), in an empty agent dir unless `env` says otherwise. */
export function runCli(args: readonly string[], timeoutMs: number, env: NodeJS.ProcessEnv = {}): Promise<CliOutput> {
	return new Promise((resolve) => {
		const child = execFile(process.execPath, [CLI_PATH, ...args], {
			timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 256 * 1024 * 1024, encoding: 'utf8',
			env: { ...process.env, PI_CODING_AGENT_DIR: join(repoRoot, 'no-agent-dir'), ...env },
		}, (error, stdout, stderr) => {
			const killed = error !== null && (error as { killed?: boolean }).killed === true;
			resolve({ code: child.exitCode, signal: child.signalCode, stdout, stderr, timedOut: killed });
		});
	});
}

export async function checkCliRun(file: string, seed: number, diagnostics: number, timeoutMs: number): Promise<CliRunResult> {
	const command = COMMANDS[seed % COMMANDS.length] as readonly string[];
	const [name, ...rest] = command;
	const out = await runCli([name as string, file, ...rest], timeoutMs);
	const what = `cli ${command.join(' ')}`;
	const problems: string[] = [];
	if (out.timedOut) {
		return { problems: [`${what} hung (killed after ${timeoutMs} ms)`] };
	}
	if (out.code !== 0 && !(out.code === 2 && /not a Pi session file|cannot read/.test(out.stderr))) {
		problems.push(`${what} exited ${out.code ?? out.signal}: ${out.stderr.slice(0, 400)}`);
	}
	if (/\n\s+at .+:\d+:\d+\)?\n/.test(out.stderr)) {
		problems.push(`${what} printed a stack trace`);
	}
	if (diagnostics > 0 && !out.stderr.includes(`${file}:`)) {
		problems.push(`${what} did not name the file and line of ${diagnostics} problem(s)`);
	}
	if (out.code === 0 && command.includes('--json')) {
		try {
			JSON.parse(out.stdout);
		} catch {
			problems.push(`${what} printed invalid JSON`);
		}
	}
	return { problems };
}

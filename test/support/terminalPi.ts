/**
 * A real Pi 1.6.0 in its terminal mode (the TUI a user types in), for the live test of the bridge's
 * draft guard: started under util-linux `script`, which gives it a pseudo-terminal of 120×40, on the
 * Node Pi 1.x needs, with the same offline agent dir as `RealPi`. Keystrokes go in as a user types
 * them; what Pi draws is kept. Stopped as a closed terminal stops it (`script` ends, Pi gets SIGHUP),
 * and killed if it lingers.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { piNodePath } from '../harness/piNode.mjs';
import { repoRoot } from './paths';
import { FAKE_MODEL, FAKE_PROVIDER, PI_CLI } from './realPi';

export interface TerminalPiOptions {
	readonly agentDir: string;
	readonly cwd: string;
	readonly env?: Readonly<Record<string, string>>;
}

const quote = (text: string): string => `'${text.replace(/'/g, '\'\\\'\'')}'`;

/** Whether this machine has util-linux's `script` (Debian's bsdutils, always installed there). */
export function hasScript(): boolean {
	const run = spawnSync('script', ['--version'], { encoding: 'utf8' });
	return run.status === 0 && run.stdout.includes('util-linux');
}

export class TerminalPi {
	/** Everything Pi drew, escape sequences included. */
	screen = '';
	private readonly exited: Promise<void>;

	private constructor(private readonly child: ChildProcessWithoutNullStreams) {
		child.stdout.on('data', (chunk: Buffer) => (this.screen += chunk.toString('utf8')));
		child.stderr.on('data', (chunk: Buffer) => (this.screen += chunk.toString('utf8')));
		this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
	}

	static start(options: TerminalPiOptions): TerminalPi {
		const env: NodeJS.ProcessEnv = {
			...process.env, PI_CODING_AGENT_DIR: options.agentDir, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0', TERM: 'xterm-256color', ...options.env,
		};
		const pi = [piNodePath(repoRoot), PI_CLI, '--provider', FAKE_PROVIDER, '--model', FAKE_MODEL].map(quote).join(' ');
		const child = spawn('script', ['--quiet', '--flush', '--return', '--command', `stty cols 120 rows 40; exec ${pi}`, '/dev/null'], { cwd: options.cwd, env, stdio: 'pipe' });
		return new TerminalPi(child);
	}

	/** Types `keys` into Pi's terminal (`\r` is Enter). */
	type(keys: string): void {
		this.child.stdin.write(keys);
	}

	/** What Pi drew, without its escape sequences (text written in one go stays in one piece). */
	get text(): string {
		// eslint-disable-next-line no-control-regex -- the terminal's escape sequences are what is removed
		return this.screen.replace(/\u001b\][^\u0007]*\u0007|\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[()][0-9A-Za-z]/g, '');
	}

	/** Closes the terminal; Pi (`piPid`, from its bridge) is killed if it is still there a few seconds later. */
	async stop(piPid: number | undefined): Promise<void> {
		this.child.kill('SIGTERM');
		const killer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
		await this.exited;
		clearTimeout(killer);
		for (let waited = 0; piPid !== undefined && alive(piPid); waited += 100) {
			if (waited >= 5000) {
				process.kill(piPid, 'SIGKILL');
			}
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	}
}

function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

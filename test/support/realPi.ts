/**
 * A real Pi 1.6.0 (this repository's devDependency) in RPC mode, for the live tests: started on the
 * Node Pi 1.x needs (test/harness/piNode.mjs), with an agent dir whose models.json points a provider
 * `fake` at a fake model server on 127.0.0.1, offline (no version check, no catalog refresh). Speaks
 * Pi's RPC protocol: commands on stdin, responses and events on stdout (split on `\n` only), and
 * keeps everything Pi printed, for the checks that tokens never appear in it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LineReader } from '../../src/node/bridge/lineReader';
import { piNodePath } from '../harness/piNode.mjs';
import { repoRoot } from './paths';

export const PI_CLI = join(repoRoot, 'node_modules', '@earendil-works', 'pi-coding-agent', 'dist', 'bundle', 'cli.js');
export const FAKE_PROVIDER = 'fake';
export const FAKE_MODEL = 'fake-1';

export type RpcRecord = Record<string, unknown> & { readonly type?: string };

/** The folder Pi keeps a project's sessions in under `<agentDir>/sessions/` (its cwd encoding). */
export function sessionFolderName(cwd: string): string {
	return `--${cwd.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

/** models.json with one provider on the fake server (openai-completions, as pi-ai speaks it). */
export function writeFakeProvider(agentDir: string, serverUrl: string): void {
	mkdirSync(agentDir, { recursive: true });
	writeFileSync(join(agentDir, 'models.json'), JSON.stringify({
		providers: {
			[FAKE_PROVIDER]: {
				baseUrl: `${serverUrl}/v1`, api: 'openai-completions', apiKey: 'fake-key',
				models: [{ id: FAKE_MODEL, reasoning: false, input: ['text'], contextWindow: 128000, maxTokens: 4096, cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } }],
			},
		},
	}));
}

export interface RealPiOptions {
	readonly agentDir: string;
	readonly cwd: string;
	/** Added to (or replacing) the environment: e.g. XDG_RUNTIME_DIR for the bridge's folder. */
	readonly env?: Readonly<Record<string, string>>;
	/** More command-line arguments (e.g. `--session-dir`). */
	readonly args?: readonly string[];
	readonly node?: string;
}

export class RealPi {
	readonly records: RpcRecord[] = [];
	stdout = '';
	stderr = '';
	private readonly waiters = new Set<() => void>();
	private nextId = 1;
	private readonly exited: Promise<number | null>;

	private constructor(private readonly child: ChildProcessWithoutNullStreams) {
		const reader = new LineReader(64 * 1024 * 1024, (line) => {
			try {
				this.records.push(JSON.parse(line) as RpcRecord);
			} catch {
				this.records.push({ type: 'unparsed', line });
			}
			for (const wake of [...this.waiters]) {
				wake();
			}
		}, () => undefined);
		child.stdout.on('data', (chunk: Buffer) => {
			this.stdout += chunk.toString('utf8');
			reader.push(chunk);
		});
		child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString('utf8')));
		this.exited = new Promise((resolve) => child.once('exit', (code) => {
			resolve(code);
			for (const wake of [...this.waiters]) {
				wake();
			}
		}));
	}

	static start(options: RealPiOptions): RealPi {
		const env: NodeJS.ProcessEnv = {
			...process.env, PI_CODING_AGENT_DIR: options.agentDir, PI_OFFLINE: '1', PI_SKIP_VERSION_CHECK: '1', PI_TELEMETRY: '0', ...options.env,
		};
		const child = spawn(options.node ?? piNodePath(repoRoot), [PI_CLI, '--mode', 'rpc', '--provider', FAKE_PROVIDER, '--model', FAKE_MODEL, ...options.args ?? []], { cwd: options.cwd, env, stdio: 'pipe' });
		return new RealPi(child);
	}

	get pid(): number {
		return this.child.pid ?? 0;
	}

	/** Sends a command and resolves with its response record. */
	async command(command: Record<string, unknown>, timeoutMs = 30_000): Promise<RpcRecord> {
		const id = `t${this.nextId++}`;
		this.child.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
		const response = await this.waitFor((record) => record.type === 'response' && record.id === id, timeoutMs, `the response to ${String(command.type)}`);
		if (response.success !== true) {
			throw new Error(`Pi refused ${String(command.type)}: ${JSON.stringify(response)}`);
		}
		return response;
	}

	/** Sends a prompt and waits until Pi has settled (the reply is in the session file). */
	async prompt(message: string, timeoutMs = 60_000): Promise<void> {
		const from = this.records.length;
		await this.command({ type: 'prompt', message });
		await this.waitFor((record, index) => index >= from && record.type === 'agent_settled', timeoutMs, 'agent_settled');
	}

	/** The first record (from index `from`) matching, waiting for it. */
	waitFor(match: (record: RpcRecord, index: number) => boolean, timeoutMs: number, what: string, from = 0): Promise<RpcRecord> {
		return new Promise((resolve, reject) => {
			const check = (): boolean => {
				const index = this.records.findIndex((record, at) => at >= from && match(record, at));
				if (index >= 0) {
					finish();
					resolve(this.records[index] as RpcRecord);
					return true;
				}
				if (this.child.exitCode !== null || this.child.signalCode !== null) {
					finish();
					reject(new Error(`Pi exited (${this.child.exitCode ?? this.child.signalCode}) before ${what}; stderr:\n${this.stderr.slice(-2000)}`));
					return true;
				}
				return false;
			};
			const timer = setTimeout(() => {
				finish();
				reject(new Error(`no ${what} from Pi within ${timeoutMs} ms; stderr:\n${this.stderr.slice(-2000)}`));
			}, timeoutMs);
			const finish = (): void => {
				clearTimeout(timer);
				this.waiters.delete(wake);
			};
			const wake = (): void => void check();
			if (!check()) {
				this.waiters.add(wake);
			}
		});
	}

	/** Ends Pi as a user does (stdin closed: an orderly shutdown), killing it if it does not go (a loaded machine's Pi is given a while). */
	async stop(timeoutMs = 60_000): Promise<number | null> {
		this.child.stdin.end();
		const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
		try {
			return await this.exited;
		} finally {
			clearTimeout(timer);
		}
	}

	/** Kills Pi at once, as `kill -9` does: no shutdown, no cleanup. */
	async kill(): Promise<void> {
		this.child.kill('SIGKILL');
		await this.exited;
	}
}

/**
 * Resolves a credential or header value the way Pi does (`resolveConfigValue` in Pi 0.73.1):
 * `!command` runs through the shell and uses its trimmed stdout; otherwise, when an environment
 * variable of that name is set (non-empty), its value is used; otherwise the string is the literal.
 *
 * Unlike Pi, a failing or hanging command is an error rather than a silent "no key", and the error
 * never repeats the command's output (it may be a secret) or the command line itself.
 */
import { spawn } from 'node:child_process';

const COMMAND_TIMEOUT_MS = 10_000;
const COMMAND_MAX_OUTPUT_BYTES = 64 * 1024;

export interface ConfigValueOptions {
	/** Where the value came from, for error messages: e.g. `auth.json key for provider "openai"`. */
	readonly description: string;
	readonly commandTimeoutMs?: number;
}

export class ConfigValueError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ConfigValueError';
	}
}

export async function resolveConfigValue(value: string, options: ConfigValueOptions): Promise<string> {
	if (value.startsWith('!')) {
		return runValueCommand(value.slice(1), options);
	}
	const fromEnvironment = process.env[value];
	return fromEnvironment ? fromEnvironment : value;
}

/** Runs `command` in a shell of its own process group so a timeout can kill everything it started. */
function runValueCommand(command: string, options: ConfigValueOptions): Promise<string> {
	const timeoutMs = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
	const ownGroup = process.platform !== 'win32';
	return new Promise((resolve, reject) => {
		const child = spawn(command, {
			shell: true,
			stdio: ['ignore', 'pipe', 'ignore'],
			detached: ownGroup,
			windowsHide: true,
		});
		const chunks: Buffer[] = [];
		let bytes = 0;
		let settled = false;
		const finish = (error: string | undefined, output?: string): void => {
			if (settled) {
				return;
			}
			settled = true;
			clearTimeout(timer);
			if (error !== undefined) {
				killTree(child.pid, ownGroup, () => child.kill('SIGKILL'));
				child.stdout.destroy();
				reject(new ConfigValueError(`The command for the ${options.description} ${error}. Run that command in a terminal to see why, then fix it or replace it with the key.`));
			} else {
				resolve(output ?? '');
			}
		};
		const timer = setTimeout(() => finish(`did not finish within ${formatSeconds(timeoutMs)}`), timeoutMs);
		child.stdout.on('data', (chunk: Buffer) => {
			bytes += chunk.length;
			if (bytes > COMMAND_MAX_OUTPUT_BYTES) {
				finish(`printed more than ${COMMAND_MAX_OUTPUT_BYTES / 1024} KiB`);
				return;
			}
			chunks.push(chunk);
		});
		child.on('error', (error) => finish(`could not be started (${error.message})`));
		child.on('close', (code, signal) => {
			if (code !== 0) {
				finish(signal ? `was killed by ${signal}` : `failed with exit code ${code}`);
				return;
			}
			const output = Buffer.concat(chunks).toString('utf8').trim();
			if (!output) {
				finish('printed nothing');
				return;
			}
			finish(undefined, output);
		});
	});
}

function killTree(pid: number | undefined, ownGroup: boolean, fallback: () => void): void {
	if (pid === undefined) {
		return;
	}
	try {
		if (ownGroup) {
			process.kill(-pid, 'SIGKILL');
		} else {
			fallback();
		}
	} catch {
		// Already gone.
	}
}

function formatSeconds(ms: number): string {
	return `${Math.round(ms / 100) / 10} s`;
}

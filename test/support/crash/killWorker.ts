/**
 * Runs a crash worker (a Node script that prints `W` just before it starts writing) and SIGKILLs it
 * `delayMs` after that mark, or `delayMs` after it starts when `early` (so that some kills land
 * before the write). Resolves when the worker was killed or ended the way `endedWell` accepts.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface KillRun {
	readonly script: string;
	readonly args: readonly string[];
	readonly delayMs: number;
	readonly early: boolean;
	/** Names the worker in the error when it ends badly. */
	readonly what: string;
	readonly endedWell: (code: number | null, stdout: string) => boolean;
}

export function runAndKill(run: KillRun): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [run.script, ...run.args], { stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		let timer: NodeJS.Timeout | undefined;
		const kill = (): void => {
			child.kill('SIGKILL');
		};
		if (run.early) {
			timer = setTimeout(kill, run.delayMs);
		}
		child.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
			if (stdout.includes('W') && timer === undefined) {
				timer = setTimeout(kill, run.delayMs);
			}
		});
		child.stderr.on('data', (chunk: Buffer) => {
			stderr += chunk.toString();
		});
		child.on('exit', (code, signal) => {
			clearTimeout(timer);
			if (signal === 'SIGKILL' || run.endedWell(code, stdout)) {
				resolve();
			} else {
				reject(new Error(`${run.what} ended with ${code ?? signal} (${stdout}): ${stderr}`));
			}
		});
	});
}

/**
 * The file a killed worker left, and what it added after the original bytes (which must be
 * intact): its whole lines, and the bytes of a cut line. Bytes, not text, until the last newline: a cut may split a character.
 */
export function readAppended(path: string, original: string): { readonly bytes: Buffer; readonly complete: string; readonly partial: Buffer } {
	const bytes = readFileSync(path);
	const originalBytes = Buffer.from(original, 'utf8');
	if (!bytes.subarray(0, originalBytes.length).equals(originalBytes)) {
		throw new Error('the original bytes changed');
	}
	const added = bytes.subarray(originalBytes.length);
	const end = added.lastIndexOf(0x0a) + 1;
	return { bytes, complete: added.subarray(0, end).toString('utf8'), partial: added.subarray(end) };
}

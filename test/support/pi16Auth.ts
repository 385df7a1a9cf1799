/**
 * Pi 1.6.0's own AuthStorage changing an auth.json in a child process (`pi16/authRunner.mjs`, on the Node
 * Pi 1.x needs), for the tests that check Pi and Pi Condense take the same lock on the file.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { LineReader } from '../../src/node/bridge/lineReader';
import { repoRoot } from './paths';
import { pi1Node } from './pi16';

export interface PiAuthWriter {
	/** Resolves when Pi printed `line` ("locked", "started", "waiting", "done"). */
	printed(line: string): Promise<void>;
	/** Lets a holding writer go on. */
	release(): void;
	/** Resolves when the process has exited. */
	readonly exited: Promise<number | null>;
}

/** Pi's `AuthStorage.modify(provider, () => ({ type: 'api_key', key }))` on `authPath`; `hold` keeps the lock until `release`. */
export function piAuthWriter(authPath: string, provider: string, key: string, how: 'hold' | 'now'): PiAuthWriter {
	const runtime = pi1Node();
	const child = spawn(runtime.nodeBin, [join(repoRoot, 'test', 'support', 'pi16', 'authRunner.mjs'), authPath, provider, key, how], { cwd: repoRoot, env: { ...process.env, ...runtime.env }, stdio: 'pipe' });
	const seen: string[] = [];
	const waiters: { line: string; resolve: () => void }[] = [];
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	const reader = new LineReader(4096, (line) => {
		seen.push(line);
		for (const waiter of waiters.filter((candidate) => candidate.line === line)) {
			waiter.resolve();
		}
	}, () => undefined);
	child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
	const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
	return {
		printed: (line) => (seen.includes(line) ? Promise.resolve() : Promise.race([
			new Promise<void>((resolve) => waiters.push({ line, resolve })),
			exited.then(() => {
				if (!seen.includes(line)) {
					throw new Error(`Pi's auth writer exited before printing ${line}: ${stderr}`);
				}
			}),
		])),
		release: () => child.stdin.end('go\n'),
		exited,
	};
}

/**
 * Pi 1.6.0's own accounting of session files (`pi16/piStatsRunner.mjs`, run on the Node that runs Pi 1.x):
 * `/session`'s totals, cache waste and per-model breakdown, for the costs parity tests.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pi1Node } from './pi16';
import { repoRoot } from './paths';

export interface Pi16Stats {
	readonly error?: string;
	readonly stats: { readonly tokens: { readonly input: number; readonly output: number; readonly cacheRead: number; readonly cacheWrite: number; readonly total: number }; readonly cost: number; readonly assistantMessages: number };
	readonly waste: { readonly missedTokens: number; readonly missedCost: number; readonly missCount: number };
	readonly misses: readonly { readonly timestamp: number; readonly missedTokens: number; readonly missedCost: number; readonly idleMs: number; readonly modelChanged: boolean }[];
	readonly breakdown: readonly { readonly key: string; readonly cost: number; readonly tokens: number }[];
}

export async function statsWithPi16(paths: readonly string[]): Promise<Pi16Stats[]> {
	const runtime = pi1Node();
	const output = await new Promise<string>((resolve, reject) => {
		const child = execFile(runtime.nodeBin, [join(repoRoot, 'test', 'support', 'pi16', 'piStatsRunner.mjs')], {
			cwd: repoRoot,
			env: { ...process.env, ...runtime.env },
			maxBuffer: 256 * 1024 * 1024,
			encoding: 'utf8',
		}, (error, stdout, stderr) => (error ? reject(new Error(`Pi 1.6.0 stats runner failed: ${error.message}\n${stderr}`)) : resolve(stdout)));
		child.stdin?.on('error', () => undefined);
		child.stdin?.end(JSON.stringify({ paths }));
	});
	const parsed = JSON.parse(output) as { pi: string; results: Pi16Stats[] };
	if (parsed.pi !== '1.6.0') {
		throw new Error(`expected @earendil-works/pi-coding-agent 1.6.0, the runner loaded ${parsed.pi}`);
	}
	return parsed.results;
}

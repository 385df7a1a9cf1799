/**
 * Pi 1.6.0's own reading of session files, for parity tests: `pi16/piRunner.mjs` run in a child process on
 * a Node that Pi 1.x accepts (>= 22.19; this machine may run Node 20), got from the npm registry by
 * `test/harness/nodeRuntime.mjs` into `.vscode-test/` when ours is older, which the test log says.
 * Many texts go in one call: Pi is loaded once per call (about half a second).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { NodeRuntime } from '../harness/nodeRuntime.mjs';
import { repoRoot } from './paths';
import { ensurePiNode } from '../harness/piNode.mjs';

export type Pi16Request = { readonly text: string; readonly sent?: unknown } | { readonly path: string; readonly sent?: unknown } | { readonly text: string; readonly appendName: string };

/** One session as Pi 1.6.0 reads it (see piRunner.mjs for each field). */
export interface Pi16Reading {
	readonly error?: string;
	readonly header: unknown;
	readonly entries: readonly { readonly id: string; readonly type: string }[];
	readonly leafId: string | null;
	readonly name: string | undefined;
	readonly branch: readonly string[];
	readonly tree: readonly unknown[];
	readonly labels: Readonly<Record<string, string>>;
	readonly context: { readonly messages: readonly unknown[]; readonly thinkingLevel: string; readonly model: unknown };
	readonly projection: readonly { readonly id: string; readonly type: string; readonly messages: number }[];
	readonly llm: readonly unknown[];
	readonly system: unknown;
	readonly restored?: readonly unknown[];
	/** For an `appendName` request: the bytes Pi's SessionManager appended. */
	readonly appended?: string;
	/** For a `path` request: whether Pi left the file as it was. */
	readonly unchanged?: boolean;
}

let node: NodeRuntime | undefined;

/** Each test file is a bundle of its own: what was said is remembered per process, not per bundle. */
const SAID = Symbol.for('pi-condense.pi1-node-said');

/** The Node that runs Pi 1.x (installed on first use; said once per process on stderr when it is not ours). */
export function pi1Node(): NodeRuntime {
	node ??= ensurePiNode(repoRoot, (message) => {
		const said = globalThis as { [SAID]?: boolean };
		if (!said[SAID] || message.includes('installing')) {
			said[SAID] = true;
			process.stderr.write(`[pi 1.6.0] ${message}\n`);
		}
	});
	return node;
}

export async function readWithPi16(requests: readonly Pi16Request[]): Promise<Pi16Reading[]> {
	const runtime = pi1Node();
	const input = JSON.stringify({ requests });
	const output = await new Promise<string>((resolve, reject) => {
		const child = execFile(runtime.nodeBin, [join(repoRoot, 'test', 'support', 'pi16', 'piRunner.mjs')], {
			cwd: repoRoot,
			env: { ...process.env, ...runtime.env },
			maxBuffer: 1024 * 1024 * 1024,
			encoding: 'utf8',
		}, (error, stdout, stderr) => (error ? reject(new Error(`Pi 1.6.0 runner failed: ${error.message}\n${stderr}`)) : resolve(stdout)));
		// A runner that dies at once closes its stdin: the exit is reported above, not the broken pipe.
		child.stdin?.on('error', () => undefined);
		child.stdin?.end(input);
	});
	const parsed = JSON.parse(output) as { pi: string; results: Pi16Reading[] };
	if (parsed.pi !== '1.6.0') {
		throw new Error(`expected @earendil-works/pi-coding-agent 1.6.0, the runner loaded ${parsed.pi}`);
	}
	return parsed.results;
}

/** The session files Pi 1.6.0's own all-sessions list (`SessionManager.listAll`, /resume's) finds under `agentDir`. */
export async function listAllWithPi16(agentDir: string): Promise<string[]> {
	const runtime = pi1Node();
	const output = await new Promise<string>((resolve, reject) => {
		execFile(runtime.nodeBin, [join(repoRoot, 'test', 'support', 'pi16', 'listAllRunner.mjs'), agentDir], {
			cwd: repoRoot,
			env: { ...process.env, ...runtime.env },
			encoding: 'utf8',
		}, (error, stdout, stderr) => (error ? reject(new Error(`Pi 1.6.0 listAll failed: ${error.message}\n${stderr}`)) : resolve(stdout)));
	});
	const parsed = JSON.parse(output) as { pi: string; paths: string[] };
	if (parsed.pi !== '1.6.0') {
		throw new Error(`expected @earendil-works/pi-coding-agent 1.6.0, the runner loaded ${parsed.pi}`);
	}
	return parsed.paths;
}

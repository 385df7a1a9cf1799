/**
 * Kill test of the command-line flush: `node out/test/stress/flushKill.js [trials] [seed]`.
 *
 * Each trial copies a real session (`large-session.migrated-v3.jsonl`, whose flush writes about
 * 380 lines), starts `node dist/cli.js now` on it, SIGKILLs it after a random delay, then runs
 * `now` and `compact` to completion. The result must satisfy the flush invariants (no ref, record,
 * alias or chain twice, no summary without its index), leave nothing pending, and render exactly
 * what an uninterrupted `now` + `compact` renders (timestamps aside). Half the kills come at a
 * random time, half as soon as the file starts growing, so many land in the middle of the write.
 * Prints a tally per kill point (before any write, mid-write, after the write); a failing trial's
 * file is kept in `.stress/`.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCondenseState, renderContext, syntheticBlockId } from '../../src/engine/condense';
import { resolveConfig } from '../../src/engine/config/resolve';
import { buildSessionContext, getBranch, parseSession } from '../../src/engine/session';
import type { AgentMessage } from '../../src/engine/session/types';
import { createFakeAgentDir } from '../support/fakeAgentDir';
import { promptOf, startFakeLlmServer } from '../support/fakeLlmServer';
import { flushInvariantViolations } from '../support/flushInvariants';
import { realSessionsDir, repoRoot } from '../support/paths';
import { Random } from '../support/random';

const CLI = join(repoRoot, 'dist', 'cli.js');
const SOURCE = join(realSessionsDir, 'large-session.migrated-v3.jsonl');
const settings = { enabled: true, summarizerModel: 'fake-llm/fake-model' };
const renderConfig = resolveConfig(settings).config;

/** When to SIGKILL: after a delay, or as soon as the file grows (plus a delay), to land mid-write. */
type Kill = { readonly afterMs: number } | { readonly onGrowthOf: string; readonly size: number; readonly afterMs: number };

/** Runs the CLI without blocking this process (the fake server answers from here). */
function runCli(args: string[], env: NodeJS.ProcessEnv, kill?: Kill): Promise<string> {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [CLI, ...args, '--quiet-ms', '0'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
		let stdout = '';
		child.stdout.on('data', (chunk: Buffer) => {
			stdout += chunk.toString();
		});
		const timers: NodeJS.Timeout[] = [];
		if (kill && 'onGrowthOf' in kill) {
			const poll = setInterval(() => {
				if (statSync(kill.onGrowthOf).size > kill.size) {
					clearInterval(poll);
					timers.push(setTimeout(() => child.kill('SIGKILL'), kill.afterMs));
				}
			}, 0);
			timers.push(poll);
		} else if (kill) {
			timers.push(setTimeout(() => child.kill('SIGKILL'), kill.afterMs));
		}
		child.on('close', () => {
			timers.forEach((timer) => clearTimeout(timer));
			resolve(stdout);
		});
	});
}

/** The rendered context without the timestamps a rerun changes (chain and custom messages). */
function renderedView(path: string): string {
	const model = parseSession(readFileSync(path, 'utf8'));
	const rendered = renderContext(buildSessionContext(model).messages, buildCondenseState(getBranch(model)), renderConfig);
	return JSON.stringify(rendered.map((m: AgentMessage) => (m.role === 'custom' || syntheticBlockId(m) !== undefined ? { ...m, timestamp: 0 } : m)));
}

async function main(): Promise<void> {
	const trials = Number(process.argv[2] ?? '50');
	const random = new Random(Number(process.argv[3] ?? Date.now() % 1e6));
	const server = await startFakeLlmServer({
		text: (request) => {
			const prompt = promptOf(request);
			if (prompt.includes('<sub-task-summaries>')) {
				return 'Fused sub-task summary.';
			}
			return [...prompt.matchAll(/^(\[\[\d+:[^\]\n]+\]\]) Tool: /gm)].map((m) => `- ${m[1] ?? ''} done`).join('\n');
		},
	});
	const agent = await createFakeAgentDir({ serverUrl: server.url, settings: { contextPrune: settings } });
	const env = { ...process.env, PI_CODING_AGENT_DIR: agent.dir };
	const dir = mkdtempSync(join(tmpdir(), 'pi-condense-kill-'));
	const tally = { beforeWrite: 0, midWrite: 0, afterWrite: 0 };
	try {
		const reference = join(dir, 'reference.jsonl');
		copyFileSync(SOURCE, reference);
		const started = performance.now();
		await runCli(['now', reference], env);
		const duration = performance.now() - started;
		await runCli(['compact', reference], env);
		const expected = renderedView(reference);
		const fullSize = statSync(reference).size;
		console.log(`# seed ${random.seed}: an uninterrupted now takes ${duration.toFixed(0)} ms; ${trials} trials`);
		for (let trial = 1; trial <= trials; trial++) {
			const path = join(dir, `t${trial}.jsonl`);
			copyFileSync(SOURCE, path);
			const sourceSize = statSync(path).size;
			const kill: Kill = random.chance(0.5)
				? { afterMs: random.int(0, Math.ceil(duration * 1.2)) }
				: { onGrowthOf: path, size: sourceSize, afterMs: random.int(0, 3) };
			await runCli(['now', path], env, kill);
			const killedSize = statSync(path).size;
			const afterNow = await runCli(['now', path], env);
			await runCli(['compact', path], env);
			const problems = flushInvariantViolations(getBranch(parseSession(readFileSync(path, 'utf8'))));
			const idle = await runCli(['now', path], env);
			if (idle !== 'pruner: nothing pending — no batches to summarize\n') {
				problems.push(`work left after resuming: ${idle}`);
			}
			if (renderedView(path) !== expected) {
				problems.push('the rendered context differs from the uninterrupted run');
			}
			const where = killedSize === sourceSize ? 'beforeWrite' : statSync(path).size >= fullSize && afterNow.startsWith('pruner: nothing pending') ? 'afterWrite' : 'midWrite';
			tally[where]++;
			if (problems.length > 0) {
				mkdirSync(join(repoRoot, '.stress'), { recursive: true });
				writeFileSync(join(repoRoot, '.stress', `flush-kill-failure-${trial}.jsonl`), readFileSync(path));
				throw new Error(`trial ${trial} (${where}, killed at ${killedSize - sourceSize} bytes written): ${problems.join('; ')}`);
			}
			rmSync(path);
			if (trial % 10 === 0) {
				console.log(`${trial} trials: ${JSON.stringify(tally)}`);
			}
		}
		console.log(`all ${trials} trials passed: ${JSON.stringify(tally)}`);
	} finally {
		rmSync(dir, { recursive: true, force: true });
		await agent.cleanup();
		await server.close();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

/**
 * `node dist/cli.js now|compact <session.jsonl>`, spawned as a user (or the reliability suite)
 * runs it: the same flush as the extension, pi-condense's notices on stdout, exit 0 when done or
 * nothing to do, 1 when refused or failed, 2 on bad usage.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFakeAgentDir, type FakeAgentDir } from '../../support/fakeAgentDir';
import { startFakeLlmServer, type FakeLlmServer } from '../../support/fakeLlmServer';
import { toolSession } from '../../support/flushFixtures';
import { repoRoot } from '../../support/paths';
import { TempDir } from '../../support/tempSession';

const CLI = join(repoRoot, 'dist', 'cli.js');

interface Run {
	readonly code: number | null;
	readonly stdout: string;
	readonly stderr: string;
}

/** Spawns the CLI asynchronously (the fake server lives in this process). */
function run(args: string[], env: Record<string, string>): Promise<Run> {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
		child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
		child.on('close', (code) => resolve({ code, stdout, stderr }));
	});
}

describe('pi-condense now / compact (node dist/cli.js)', function () {
	this.timeout(30000);
	let server: FakeLlmServer;
	let agent: FakeAgentDir;
	let dir: TempDir;

	beforeEach(async () => {
		server = await startFakeLlmServer({ text: '- [[1:bash]] read the log\n- [[2:read]] read the source' });
		dir = new TempDir();
	});
	afterEach(async () => {
		await server.close();
		await agent.cleanup();
		dir.remove();
	});

	async function agentWith(contextPrune: Record<string, unknown>, piCondense?: string | null): Promise<Record<string, string>> {
		agent = await createFakeAgentDir({ serverUrl: server.url, settings: { contextPrune: { summarizerModel: 'fake-llm/fake-model', ...contextPrune } }, piCondense });
		return { PI_CODING_AGENT_DIR: agent.dir };
	}

	it('refuses now and compact while Pi has no pi-condense, saying how to install it, and writes nothing', async () => {
		const env = await agentWith({ enabled: true }, null);
		const path = dir.file('s.jsonl', toolSession(2).text());
		const before = readFileSync(path, 'utf8');
		for (const command of ['now', 'compact']) {
			const result = await run([command, path, '--quiet-ms', '0'], env);
			assert.equal(result.code, 1, command);
			assert.equal(result.stdout, '');
			assert.match(result.stderr, /s\.jsonl: pruner: nothing flushed — pi-condense is not installed in Pi[^]*would only add summaries[^]*pi install npm:pi-condense/);
		}
		assert.equal(readFileSync(path, 'utf8'), before);
		assert.equal(server.requests.length, 0);
		const forced = await run(['now', path, '--quiet-ms', '0', '--release', '2.5.0'], env);
		assert.equal(forced.code, 0, `--release follows a copy Pi loads another way: ${forced.stderr}`);
	});

	it('flushes, then finds nothing pending; compact compresses the closed chain', async () => {
		const env = await agentWith({ enabled: true, chainCompression: { enabled: false } });
		const builder = toolSession(2);
		builder.user('Next question.');
		builder.assistant([{ type: 'text', text: 'Answered without tools.' }]);
		const path = dir.file('s.jsonl', builder.text());
		const first = await run(['now', path], env);
		assert.equal(first.code, 0, first.stderr);
		assert.match(first.stdout, /^pruner: pruned 4 tool calls from 2 batches — summary \d+ chars vs \d+ raw chars\n$/);
		const afterFirst = readFileSync(path, 'utf8');

		const second = await run(['now', path, '--quiet-ms', '0'], env);
		assert.equal(second.code, 0, second.stderr);
		assert.equal(second.stdout, 'pruner: nothing pending — no batches to summarize\n');
		assert.equal(readFileSync(path, 'utf8'), afterFirst);

		const compact = await run(['compact', path, '--quiet-ms', '0'], env);
		assert.equal(compact.code, 0, compact.stderr);
		assert.match(compact.stdout, /^pruner: compacted 1 chain \(b1\), reclaimed ~\d+ tokens\n$/);
		const again = await run(['compact', path, '--quiet-ms', '0'], env);
		assert.equal(again.stdout, 'pruner: no chains eligible for compaction\n');
		assert.equal(server.requests.length, 3, 'two batches and one fusion of their two summaries');
	});

	it('after a flush killed before its chains, now finds nothing pending and says how many chains compact would take; status says so too', async () => {
		const env = await agentWith({ enabled: true, chainCompression: { enabled: true, rollingWindow: 1, stripFinalAssistantThinking: true, fuseRangeSummary: true } });
		const builder = toolSession(1);
		builder.user('Now the other logs.');
		builder.assistant([{ type: 'toolCall', id: 'd1a', name: 'bash', arguments: { command: 'cat logs/9.log' } }]);
		builder.toolResult('d1a', 'bash', 'log line\n'.repeat(200));
		builder.assistant([{ type: 'text', text: 'Both read.' }]);
		const path = dir.file('s.jsonl', builder.text());
		const first = await run(['now', path, '--quiet-ms', '0'], env);
		assert.equal(first.code, 0, first.stderr);
		// The file as a kill right before the chain entry leaves it.
		const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
		const chainAt = lines.findIndex((line) => line.includes('"customType":"context-prune-chain"'));
		assert.ok(chainAt > 0, 'the flush compressed the older chain');
		writeFileSync(path, `${lines.slice(0, chainAt).join('\n')}\n`);
		const hint = `1 chain can be compacted: run pi-condense compact ${path}`;
		const again = await run(['now', path, '--quiet-ms', '0'], env);
		assert.equal(again.code, 0, again.stderr);
		assert.equal(again.stdout, `pruner: nothing pending — no batches to summarize\n${hint}\n`);
		const status = await run(['status', path], env);
		assert.equal(status.stdout.trimEnd().split('\n').at(-1), hint);
		const compact = await run(['compact', path, '--quiet-ms', '0'], env);
		assert.match(compact.stdout, /^pruner: compacted 2 chains \(b1, b2\)/);
		const after = await run(['status', path], env);
		assert.ok(!after.stdout.includes('can be compacted'), after.stdout);
	});

	it('exits 1 when pruning is disabled or the summarizer fails, leaving the file untouched', async () => {
		let env = await agentWith({ enabled: false });
		const path = dir.file('s.jsonl', toolSession(1).text());
		const before = readFileSync(path, 'utf8');
		const disabled = await run(['now', path], env);
		assert.equal(disabled.code, 1);
		assert.equal(disabled.stdout, 'Context pruning is disabled. Run /pruner on first.\n');
		await agent.cleanup();

		env = await agentWith({ enabled: true });
		const failing = { status: 500, errorMessage: 'boom', headers: { 'retry-after-ms': '1' } };
		server.enqueue(failing, failing, failing, failing);
		const failed = await run(['now', path], env);
		assert.equal(failed.code, 1);
		// 2.2.0+: the failing summarizer model is retried once on the session's model (anthropic here,
		// with no key in this agent dir), and that error is the one reported.
		assert.match(failed.stdout, /pruner: nothing flushed — failed \(No API key for provider "anthropic"/);
		assert.match(failed.stderr, /run the flush again/);
		assert.equal(readFileSync(path, 'utf8'), before);
	});

	it('exits 2 on bad usage', async () => {
		const env = await agentWith({ enabled: true });
		for (const args of [['now'], ['now', 'a.jsonl', '--quiet-ms', 'soon'], ['compact', 'a.jsonl', '--sequential'], ['status', 'a.jsonl', '--quiet-ms', '0']]) {
			const result = await run(args, env);
			assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
			assert.match(result.stderr, /Usage: pi-condense/);
		}
	});
});

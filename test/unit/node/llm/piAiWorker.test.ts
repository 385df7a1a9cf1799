/**
 * The pi-ai worker (`PiAiWorker`), from the real built worker and pi-ai chunk: model lookups and
 * listings answer as they do in this thread; pi-ai is never loaded in the calling thread; the
 * worker sees environment changes made after it started, stops when idle (never while a flush
 * holds a summarizer) and on dispose.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { lookUpModel } from '../../../../src/node/llm/modelPricing';
import { listUsableModels } from '../../../../src/node/llm/models';
import { PiAiWorker } from '../../../../src/node/llm/worker/piAiWorker';
import { createFakeAgentDir, type FakeAgentDir } from '../../../support/fakeAgentDir';
import { flushConfig } from '../../../support/flushFixtures';
import { BUNDLED_ONLY, distDir, loadPiAi } from '../../../support/piAiForTests';
import { WRITER_RELEASE } from '../../../support/releases';
import { useUnsetEnvVars } from '../../../support/unsetEnvVars';

const ANTHROPIC_VARS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_OAUTH_TOKEN'];

describe('PiAiWorker', function () {
	this.timeout(60_000);
	let agent: FakeAgentDir;
	let worker: PiAiWorker;
	useUnsetEnvVars(ANTHROPIC_VARS);

	before(async () => {
		agent = await createFakeAgentDir({
			modelsJsonText: JSON.stringify({ providers: { local: { baseUrl: 'http://127.0.0.1:9/v1', api: 'openai-completions', apiKey: 'x', models: [{ id: 'tiny', name: 'Tiny', contextWindow: 4096, maxTokens: 512, cost: { input: 1, output: 2, cacheRead: 0.5, cacheWrite: 0 } }] } } }),
		});
		worker = new PiAiWorker({ distDir, installedPiAi: () => BUNDLED_ONLY });
	});

	after(async () => {
		await worker.dispose();
		await agent.cleanup();
	});

	it('looks models up as this thread does, for a built-in model and for one of models.json', async () => {
		for (const [provider, modelId] of [['anthropic', 'claude-sonnet-4-5'], ['local', 'tiny']] as const) {
			const here = await lookUpModel(loadPiAi, agent.dir, provider, modelId);
			assert.ok(here, `${provider}/${modelId} is known`);
			assert.deepEqual(await worker.lookUp(agent.dir, provider, modelId), here);
		}
		assert.equal(await worker.lookUp(agent.dir, 'nobody', 'nothing'), undefined);
	});

	it('lists the usable models as this thread does, and sees a key set after it started', async () => {
		const before = await worker.listModels(agent.dir);
		assert.deepEqual(before, await listUsableModels(await loadPiAi(), agent.dir));
		assert.ok(before.some((model) => model.ref === 'local/tiny'));
		assert.ok(!before.some((model) => model.ref.startsWith('anthropic/')), 'no Anthropic key yet');
		process.env['ANTHROPIC_API_KEY'] = 'sk-ant-set-after-start';
		const after = await worker.listModels(agent.dir);
		assert.deepEqual(after, await listUsableModels(await loadPiAi(), agent.dir));
		assert.ok(after.some((model) => model.ref === 'anthropic/claude-sonnet-4-5'), 'the key set on the host is seen by the running worker');
		delete process.env['ANTHROPIC_API_KEY'];
	});

	it('never loads pi-ai in the calling thread (a lookup, a listing and a summarizer call in a fresh process)', () => {
		const probe = join(process.cwd(), 'out', 'test', 'support', 'piAiWorkerProbe.js');
		const report = JSON.parse(execFileSync(process.execPath, [probe, distDir], { encoding: 'utf8' })) as Record<string, unknown>;
		assert.equal(report['piAiLoaded'], false);
		assert.equal(report['text'], '- [[1:bash]] listed the files');
		assert.deepEqual(report['progress'], [6, 12, 18, 24, 29]);
		assert.equal(report['requests'], 1);
		assert.equal(typeof report['contextWindow'], 'number');
		assert.deepEqual(report['models'], ['fake-llm/fake-model']);
	});

	it('stops when idle, but not while a flush holds a summarizer; starts again on the next question', async () => {
		const idle = new PiAiWorker({ distDir, idleMs: 20, installedPiAi: () => BUNDLED_ONLY });
		try {
			const summarizer = idle.summarizers({
				agentDir: agent.dir, config: flushConfig({ summarizerModel: 'nobody/nothing' }), sessionModel: undefined, fallbackRule: WRITER_RELEASE.summarizerFallback,
			});
			await assert.rejects(summarizer.summarize({ prompt: 'x' }), { name: 'SummarizerError', kind: 'model' });
			// Longer than the idle time: the open summarizer (its fallback state) keeps the worker.
			await new Promise((resolve) => setTimeout(resolve, 200));
			assert.equal(idle.running, true, 'an open flush keeps the worker');
			summarizer.release();
			await idle.stopped();
			assert.equal(idle.running, false, 'stopped once released and idle');
			assert.ok(await idle.lookUp(agent.dir, 'local', 'tiny'), 'a new question starts it again');
			await idle.stopped();
			assert.equal(idle.running, false);
		} finally {
			await idle.dispose();
		}
	});

	it('fails every waiting question once disposed, and answers none after', async () => {
		const other = new PiAiWorker({ distDir, installedPiAi: () => BUNDLED_ONLY });
		const pending = assert.rejects(other.lookUp(agent.dir, 'anthropic', 'claude-sonnet-4-5'), /shutting down/);
		await other.dispose();
		await pending;
		assert.equal(other.running, false);
		await assert.rejects(other.listModels(agent.dir), /shutting down/);
	});
});

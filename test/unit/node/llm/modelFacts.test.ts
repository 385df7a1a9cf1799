/**
 * Model lookups through the worker thread that loads pi-ai: the same answers as the lookup made in
 * this thread, from the real built worker and pi-ai chunk, for pi-ai's built-ins and models.json.
 */
import assert from 'node:assert/strict';
import { ModelFactsWorker } from '../../../../src/node/llm/modelFacts';
import { lookUpModel } from '../../../../src/node/llm/modelPricing';
import { createFakeAgentDir, type FakeAgentDir } from '../../../support/fakeAgentDir';
import { distDir, loadPiAi } from '../../../support/piAiForTests';

describe('ModelFactsWorker', () => {
	let agent: FakeAgentDir;
	let worker: ModelFactsWorker;

	before(async () => {
		agent = await createFakeAgentDir({
			modelsJsonText: JSON.stringify({ providers: { local: { baseUrl: 'http://127.0.0.1:9/v1', api: 'openai-completions', apiKey: 'x', models: [{ id: 'tiny', name: 'Tiny', contextWindow: 4096, maxTokens: 512, cost: { input: 1, output: 2, cacheRead: 0.5, cacheWrite: 0 } }] } } }),
		});
		worker = new ModelFactsWorker(distDir);
	});

	after(async () => {
		await worker.dispose();
		await agent.cleanup();
	});

	it('answers as the lookup in this thread does, for a built-in model and for one of models.json', async function () {
		this.timeout(60_000);
		for (const [provider, modelId] of [['anthropic', 'claude-sonnet-4-5'], ['local', 'tiny']] as const) {
			const here = await lookUpModel(loadPiAi, agent.dir, provider, modelId);
			assert.ok(here, `${provider}/${modelId} is known`);
			assert.deepEqual(await worker.lookUp(agent.dir, provider, modelId), here);
		}
	});

	it('answers undefined for a model nobody knows, and fails every waiting lookup once disposed', async function () {
		this.timeout(60_000);
		assert.equal(await worker.lookUp(agent.dir, 'nobody', 'nothing'), undefined);
		const other = new ModelFactsWorker(distDir);
		const pending = assert.rejects(other.lookUp(agent.dir, 'anthropic', 'claude-sonnet-4-5'), /shutting down/);
		await other.dispose();
		await pending;
	});
});

/**
 * Model specs, and the catalog of a pi-ai 0.7x (built-ins + models.json, Pi 0.73's rules) with parity
 * against Pi 0.73.1's own ModelRegistry on the same agent directory. (pi-ai 1.x: modelsLibrary.test.ts.)
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readAuthFile } from '../../../../src/node/llm/authFile';
import { resolveRequestAuth } from '../../../../src/node/llm/credentials';
import { legacyLibrary } from '../../../../src/node/llm/library/legacyLibrary';
import type { LibraryCatalog } from '../../../../src/node/llm/library/modelLibrary';
import { findModel, loadModelCatalog } from '../../../../src/node/llm/modelCatalog';
import { listUsableModels, parseModelSpec, resolveSummarizerModel } from '../../../../src/node/llm/models';
import { createFakeAgentDir, type FakeAgentDir, type FakeAgentDirOptions } from '../../../support/fakeAgentDir';
import { legacyPiAi } from '../../../support/piAiForTests';

const LEGACY_ORIGIN = { kind: 'installed', piAiName: '@mariozechner/pi-ai', piAiVersion: '0.73.1' } as const;

describe('parseModelSpec', () => {
	it('splits provider and id at the first slash', () => {
		assert.deepEqual(parseModelSpec('anthropic/claude-sonnet-4-5'), { provider: 'anthropic', modelId: 'claude-sonnet-4-5', rawModelId: 'claude-sonnet-4-5' });
		assert.deepEqual(parseModelSpec(' openrouter/moonshotai/kimi-k2.6 '), { provider: 'openrouter', modelId: 'moonshotai/kimi-k2.6', rawModelId: 'moonshotai/kimi-k2.6' });
	});

	it('reads the part after the last colon as thinking only when it is a thinking level', () => {
		assert.deepEqual(parseModelSpec('openai/gpt-5:high'), { provider: 'openai', modelId: 'gpt-5', rawModelId: 'gpt-5:high', thinking: 'high' });
		assert.deepEqual(parseModelSpec('ollama/qwen2.5-coder:7b'), { provider: 'ollama', modelId: 'qwen2.5-coder:7b', rawModelId: 'qwen2.5-coder:7b' });
		assert.deepEqual(parseModelSpec('x/a:b:off'), { provider: 'x', modelId: 'a:b', rawModelId: 'a:b:off', thinking: 'off' });
	});

	it('rejects specs without a provider or an id', () => {
		for (const spec of ['claude', '/claude', 'anthropic/', '', 'default']) {
			assert.equal(parseModelSpec(spec), undefined, spec);
		}
	});
});

describe('model catalog and resolution with pi-ai 0.7x (Pi 0.73 rules)', () => {
	const dirs: FakeAgentDir[] = [];
	afterEach(async () => {
		await Promise.all(dirs.splice(0).map((dir) => dir.cleanup()));
	});

	async function catalogFor(options: FakeAgentDirOptions): Promise<{ dir: FakeAgentDir; catalog: LibraryCatalog }> {
		const dir = await createFakeAgentDir(options);
		dirs.push(dir);
		return { dir, catalog: await legacyLibrary(await legacyPiAi(), LEGACY_ORIGIN).openCatalog(dir.dir, 'probe') };
	}

	it('gives custom models Pi\'s defaults', async () => {
		const { catalog } = await catalogFor({ serverUrl: 'http://127.0.0.1:9' });
		const model = catalog.find('fake-llm', 'fake-model');
		assert.deepEqual(model, {
			id: 'fake-model', name: 'fake-model', api: 'openai-completions', provider: 'fake-llm', baseUrl: 'http://127.0.0.1:9/v1',
			reasoning: false, thinkingLevelMap: undefined, input: ['text'], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 128000, maxTokens: 16384, headers: undefined, compat: undefined,
		});
	});

	it('applies provider and per-model overrides to built-ins, and lets a custom model replace one', async () => {
		const { catalog } = await catalogFor({
			extraProviders: {
				anthropic: {
					baseUrl: 'https://proxy.example/v1',
					modelOverrides: { 'claude-sonnet-4-5': { name: 'Sonnet via proxy', cost: { input: 1 } } },
				},
				openai: { models: [{ id: 'gpt-4o-mini', name: 'Replaced', contextWindow: 1000 }] },
			},
		});
		const builtIn = (await legacyPiAi()).getModels('anthropic').find((model) => model.id === 'claude-sonnet-4-5')!;
		const sonnet = catalog.find('anthropic', 'claude-sonnet-4-5')!;
		assert.equal(sonnet.baseUrl, 'https://proxy.example/v1');
		assert.equal(sonnet.name, 'Sonnet via proxy');
		assert.deepEqual(sonnet.cost, { ...builtIn.cost, input: 1 });
		assert.ok(catalog.models.filter((model) => model.provider === 'anthropic').every((model) => model.baseUrl === 'https://proxy.example/v1'));
		const replaced = catalog.find('openai', 'gpt-4o-mini')!;
		assert.equal(replaced.name, 'Replaced');
		assert.equal(replaced.contextWindow, 1000);
		assert.equal(replaced.api, (await legacyPiAi()).getModels('openai')[0]!.api, 'inherits the built-in provider api');
		assert.equal(catalog.models.filter((model) => model.provider === 'openai' && model.id === 'gpt-4o-mini').length, 1);
	});

	it('reads models.json with comments and trailing commas, as Pi does', async () => {
		const { catalog } = await catalogFor({
			modelsJsonText: '{\n  // local models\n  "providers": {\n    "ollama": {\n      "baseUrl": "http://localhost:11434/v1", // comment\n      "api": "openai-completions",\n      "apiKey": "ollama",\n      "models": [{ "id": "qwen2.5-coder:7b", },],\n    },\n  },\n}\n',
		});
		assert.equal(catalog.modelsJsonProblem, undefined);
		assert.ok(catalog.find('ollama', 'qwen2.5-coder:7b'));
	});

	it('ignores an invalid models.json and names the problem in resolution errors', async () => {
		const { catalog } = await catalogFor({ extraProviders: { mine: { baseUrl: 'http://x', models: [{ id: 'm' }] } } });
		assert.match(catalog.modelsJsonProblem ?? '', /provider mine: "apiKey" is required when defining custom models/);
		assert.ok(catalog.find('anthropic', 'claude-sonnet-4-5'), 'built-ins stay');
		assert.throws(() => resolveSummarizerModel(catalog, 'mine/m', undefined), (error: Error) => {
			assert.match(error.message, /Unknown provider "mine"/);
			assert.match(error.message, /"apiKey" is required/);
			return true;
		});
	});

	it('prefers an exact id containing a thinking-like suffix over the suffix reading', async () => {
		const { catalog } = await catalogFor({ serverUrl: 'http://127.0.0.1:9', models: [{ id: 'odd:high' }, { id: 'odd' }] });
		const exact = resolveSummarizerModel(catalog, 'fake-llm/odd:high', undefined);
		assert.equal(exact.model.id, 'odd:high');
		assert.equal(exact.thinking, undefined);
		const suffixed = resolveSummarizerModel(catalog, 'fake-llm/odd:low', undefined);
		assert.equal(suffixed.model.id, 'odd');
		assert.equal(suffixed.thinking, 'low');
	});

	it('lists the models whose provider has a credential', async () => {
		const saved = process.env.GROQ_API_KEY;
		process.env.GROQ_API_KEY = 'gsk-test';
		try {
			const { dir } = await catalogFor({ serverUrl: 'http://127.0.0.1:9', auth: { openai: { type: 'api_key', key: 'sk-x' } } });
			const choices = await listUsableModels(legacyLibrary(await legacyPiAi(), LEGACY_ORIGIN), dir.dir);
			const providers = new Set(choices.map((choice) => choice.ref.split('/')[0]));
			assert.ok(providers.has('openai') && providers.has('groq') && providers.has('fake-llm'));
			assert.ok(!providers.has('xai') || process.env.XAI_API_KEY);
			assert.deepEqual(choices.find((choice) => choice.ref === 'fake-llm/fake-model'), {
				ref: 'fake-llm/fake-model', name: 'fake-model', reasoning: false, credentialSource: 'models.json',
			});
		} finally {
			if (saved === undefined) {
				delete process.env.GROQ_API_KEY;
			} else {
				process.env.GROQ_API_KEY = saved;
			}
		}
	});
});

describe('parity with Pi 0.73.1 ModelRegistry', () => {
	const modelsJson: FakeAgentDirOptions = {
		serverUrl: 'http://127.0.0.1:9',
		models: [
			{ id: 'fake-model', reasoning: true, cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 }, headers: { 'x-model': 'MODEL_HEADER_FROM_ENV' } },
			{ id: 'second', name: 'Second', input: ['text', 'image'], contextWindow: 32000, maxTokens: 4096, compat: { supportsDeveloperRole: false } },
		],
		providerFields: { headers: { 'x-provider': '!printf provider-header' }, compat: { supportsStore: false }, authHeader: true },
		extraProviders: {
			anthropic: { baseUrl: 'https://proxy.example/v1', compat: { supportsEagerToolInputStreaming: false }, modelOverrides: { 'claude-sonnet-4-5': { name: 'Proxied', maxTokens: 1234, cost: { output: 99 } } } },
			openai: { models: [{ id: 'my-openai-model' }] },
		},
		auth: { 'fake-llm': { type: 'api_key', key: 'FAKE_KEY_FROM_ENV' } },
	};

	it('finds the same models and resolves the same key and headers', async () => {
		process.env.FAKE_KEY_FROM_ENV = 'sk-parity-key';
		process.env.MODEL_HEADER_FROM_ENV = 'model-header';
		const dir = await createFakeAgentDir(modelsJson);
		try {
			const pi = await import('@mariozechner/pi-coding-agent');
			const authStorage = pi.AuthStorage.create(join(dir.dir, 'auth.json'));
			const registry = pi.ModelRegistry.create(authStorage, join(dir.dir, 'models.json'));
			assert.equal(registry.getError(), undefined);
			const piAi = await legacyPiAi();
			const auth = await readAuthFile(dir.dir);
			const catalog = await loadModelCatalog(piAi, dir.dir, auth);
			const refs = (models: readonly { provider: string; id: string }[]) => models.map((model) => `${model.provider}/${model.id}`).sort();
			assert.deepEqual(refs(catalog.models), refs(registry.getAll()));
			for (const [provider, id] of [['fake-llm', 'fake-model'], ['fake-llm', 'second'], ['anthropic', 'claude-sonnet-4-5'], ['anthropic', 'claude-opus-4-5'], ['openai', 'my-openai-model'], ['openai', 'gpt-4o-mini']] as const) {
				const ours = findModel(catalog, provider, id);
				const theirs = registry.find(provider, id);
				assert.deepEqual(JSON.parse(JSON.stringify(ours)), JSON.parse(JSON.stringify(theirs)), `${provider}/${id}`);
			}
			const model = findModel(catalog, 'fake-llm', 'fake-model')!;
			const ours = await resolveRequestAuth(model, { piAi, agentDir: dir.dir, catalog, auth });
			const theirs = await registry.getApiKeyAndHeaders(registry.find('fake-llm', 'fake-model')!);
			assert.ok(theirs.ok);
			assert.deepEqual({ apiKey: ours.apiKey, headers: ours.headers }, { apiKey: theirs.apiKey, headers: theirs.headers });
			assert.equal(ours.apiKey, 'sk-parity-key');
		} finally {
			delete process.env.FAKE_KEY_FROM_ENV;
			delete process.env.MODEL_HEADER_FROM_ENV;
			await dir.cleanup();
		}
	});
});

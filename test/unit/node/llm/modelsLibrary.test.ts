/**
 * Today's pi-ai (1.x) as the summarizer sees it: models.json laid over its built-in providers and auth.json's
 * credentials resolved by Pi 1.x's rules, checked against Pi 1.6.0's own `ModelRuntime` on the same agent
 * directory (the devDependency `@earendil-works/pi-coding-agent`), plus what Pi does not show: the notes about
 * a provider Pi renamed and about a models.json entry Pi would not use.
 */
import assert from 'node:assert/strict';
import { setMaxListeners } from 'node:events';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { LibraryCatalog } from '../../../../src/node/llm/library/modelLibrary';
import { listUsableModels, resolveSummarizerModel } from '../../../../src/node/llm/models';
import { createFakeAgentDir, type FakeAgentDir, type FakeAgentDirOptions } from '../../../support/fakeAgentDir';
import { loadPiAi, rejectsWithKind } from '../../../support/piAiForTests';
import { useUnsetEnvVars } from '../../../support/unsetEnvVars';

interface PiModelRuntime {
	getModels(): readonly { provider: string; id: string }[];
	getModel(provider: string, id: string): object | undefined;
	getAuth(model: object): Promise<{ auth: { apiKey?: string; headers?: Record<string, string> } } | undefined>;
	getError(): string | undefined;
}

/**
 * Pi 1.6.0's own model runtime on a copy of `agentDir` (it writes auth.json and its models-store.json there).
 * `restoreCatalogs`: let it read the catalogs it stored (models-store.json), offline, as Pi does on start.
 */
async function piRuntimeFor(agentDir: string, cleanups: (() => Promise<void>)[], restoreCatalogs = false): Promise<PiModelRuntime> {
	const copy = await mkdtemp(join(tmpdir(), 'pi-condense-pi-agent-'));
	cleanups.push(() => rm(copy, { recursive: true, force: true }));
	await cp(agentDir, copy, { recursive: true });
	const file = join(process.cwd(), 'node_modules', '@earendil-works', 'pi-coding-agent', 'dist', 'core', 'model-runtime.js');
	const { ModelRuntime } = await import(pathToFileURL(file).href) as { ModelRuntime: { create(options: object): Promise<PiModelRuntime> } };
	// No availability pass unless asked: it only fills Pi's model picker, and it adds an abort listener per
	// provider (more: each model of its catalogs) to one signal, hundreds in all (Node warns past ten).
	if (!restoreCatalogs) {
		return ModelRuntime.create({ authPath: join(copy, 'auth.json'), modelsPath: join(copy, 'models.json'), allowModelNetwork: false, refreshOnCreate: false });
	}
	setMaxListeners(1000);
	try {
		return await ModelRuntime.create({ authPath: join(copy, 'auth.json'), modelsPath: join(copy, 'models.json'), allowModelNetwork: false });
	} finally {
		setMaxListeners(10);
	}
}

const refs = (models: readonly { provider: string; id: string }[]): string[] => models.map((model) => `${model.provider}/${model.id}`).sort();

describe('today\'s pi-ai: models.json and auth.json as Pi 1.6.0 reads them', function () {
	this.timeout(30_000);
	useUnsetEnvVars(['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'ANTHROPIC_OAUTH_TOKEN', 'ANTHROPIC_AUTH_TOKEN', 'GROQ_API_KEY', 'FAKE_KEY_FROM_ENV', 'MODEL_HEADER_FROM_ENV']);
	const dirs: FakeAgentDir[] = [];
	const cleanups: (() => Promise<void>)[] = [];
	afterEach(async () => {
		await Promise.all([...dirs.splice(0).map((dir) => dir.cleanup()), ...cleanups.splice(0).map((cleanup) => cleanup())]);
	});

	async function catalogFor(options: FakeAgentDirOptions): Promise<{ dir: FakeAgentDir; catalog: LibraryCatalog }> {
		const dir = await createFakeAgentDir(options);
		dirs.push(dir);
		return { dir, catalog: await (await loadPiAi()).openCatalog(dir.dir, 'request') };
	}

	const everything: FakeAgentDirOptions = {
		serverUrl: 'http://127.0.0.1:9',
		providerApiKey: '$FAKE_KEY_FROM_ENV',
		models: [
			{ id: 'fake-model', reasoning: true, cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 }, headers: { 'x-model': '$MODEL_HEADER_FROM_ENV' } },
			{ id: 'second', name: 'Second', input: ['text', 'image'], contextWindow: 32000, maxTokens: 4096, compat: { supportsDeveloperRole: false } },
		],
		providerFields: { headers: { 'x-provider': '!printf provider-header', 'x-literal': 'BARE_NAME' }, compat: { supportsStore: false }, authHeader: true },
		extraProviders: {
			anthropic: { baseUrl: 'http://127.0.0.1:9', compat: { supportsEagerToolInputStreaming: false }, modelOverrides: { 'claude-sonnet-5': { name: 'Proxied', maxTokens: 1234, cost: { output: 99 } } } },
			openai: { models: [{ id: 'my-openai-model' }] },
		},
		auth: { groq: { type: 'api_key', key: 'gsk-literal-key' }, anthropic: { type: 'api_key', key: '$ANTHROPIC_FROM_ENV_NAME' } },
	};

	it('builds the same models and resolves the same keys and headers as Pi 1.6.0\'s ModelRuntime', async () => {
		process.env.FAKE_KEY_FROM_ENV = 'sk-parity-key';
		process.env.MODEL_HEADER_FROM_ENV = 'model-header';
		process.env.OPENAI_API_KEY = 'sk-openai-from-env';
		process.env.ANTHROPIC_FROM_ENV_NAME = 'sk-ant-from-named-variable';
		try {
			const { dir, catalog } = await catalogFor(everything);
			const pi = await piRuntimeFor(dir.dir, cleanups);
			assert.equal(pi.getError(), undefined);
			assert.deepEqual(refs(catalog.models), refs(pi.getModels()));
			assert.equal(catalog.models.length, 1698 + 3, 'the built-ins, two custom models and one on a built-in provider');
			const checked = [['fake-llm', 'fake-model'], ['fake-llm', 'second'], ['anthropic', 'claude-sonnet-5'], ['anthropic', 'claude-opus-5'], ['openai', 'my-openai-model'], ['groq', catalog.models.find((model) => model.provider === 'groq')!.id]] as const;
			for (const [provider, id] of checked) {
				const ours = catalog.find(provider, id);
				const theirs = pi.getModel(provider, id);
				assert.deepEqual(JSON.parse(JSON.stringify(ours)), JSON.parse(JSON.stringify(theirs)), `${provider}/${id}`);
				const ourAuth = await catalog.requestAuth(ours!, { commandCache: new Map() });
				const theirAuth = await pi.getAuth(theirs!);
				assert.deepEqual({ apiKey: ourAuth.apiKey, headers: ourAuth.headers }, { apiKey: theirAuth?.auth.apiKey, headers: theirAuth?.auth.headers }, `auth of ${provider}/${id}`);
			}
			const fake = await catalog.requestAuth(catalog.find('fake-llm', 'fake-model')!, { commandCache: new Map() });
			assert.deepEqual(fake.headers, { 'x-provider': 'provider-header', 'x-literal': 'BARE_NAME', Authorization: 'Bearer sk-parity-key', 'x-model': 'model-header' });
			assert.equal(catalog.find('anthropic', 'claude-sonnet-5')?.baseUrl, 'http://127.0.0.1:9');
		} finally {
			delete process.env.ANTHROPIC_FROM_ENV_NAME;
		}
	});

	it('knows the models Pi stored from its newer catalogs (models-store.json), as Pi\'s ModelRuntime does', async () => {
		const model = (provider: string, id: string, api: string, baseUrl: string): object => ({
			id, name: id, api, provider, baseUrl, reasoning: true, input: ['text'], cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 }, contextWindow: 400000, maxTokens: 64000,
		});
		const dir = await createFakeAgentDir({ extraProviders: { anthropic: { baseUrl: 'http://127.0.0.1:9' } } });
		dirs.push(dir);
		await writeFile(join(dir.dir, 'models-store.json'), JSON.stringify({
			// Published after pi-ai 1.6.0 was built: known.
			anthropic: { models: [model('anthropic', 'claude-sonnet-5-7', 'anthropic-messages', 'https://api.anthropic.com')], lastModified: Date.now(), checkedAt: Date.now() },
			// Older than the built-in data: ignored.
			openai: { models: [model('openai', 'gpt-ghost', 'openai-responses', 'https://api.openai.com/v1')], lastModified: 1, checkedAt: 1 },
			// The list an OpenRouter key may use: it is the catalog.
			openrouter: { models: [model('openrouter', 'moonshotai/kimi-k3', 'openai-completions', 'https://openrouter.ai/api/v1')], checkedAt: Date.now() },
		}, null, 2));
		const catalog = await (await loadPiAi()).openCatalog(dir.dir, 'probe');
		assert.equal(catalog.find('anthropic', 'claude-sonnet-5-7')?.baseUrl, 'http://127.0.0.1:9', 'and models.json applies over it');
		assert.equal(catalog.find('openai', 'gpt-ghost'), undefined);
		assert.deepEqual(refs(catalog.models.filter((candidate) => candidate.provider === 'openrouter')), ['openrouter/moonshotai/kimi-k3']);
		const pi = await piRuntimeFor(dir.dir, cleanups, true);
		assert.deepEqual(refs(catalog.models), refs(pi.getModels()));
		assert.deepEqual(JSON.parse(JSON.stringify(catalog.find('anthropic', 'claude-sonnet-5-7'))), JSON.parse(JSON.stringify(pi.getModel('anthropic', 'claude-sonnet-5-7'))));
	});

	it('lets a stored credential own its provider, ahead of the environment and models.json, and says where keys come from', async () => {
		process.env.OPENAI_API_KEY = 'sk-from-env';
		const { dir, catalog } = await catalogFor({
			auth: { openai: { type: 'api_key', key: 'sk-stored' } },
			extraProviders: { groq: { apiKey: 'gsk-from-models-json' } },
		});
		assert.deepEqual(await catalog.requestAuth(catalog.find('openai', 'gpt-4o-mini')!, { commandCache: new Map() }).then((auth) => [auth.apiKey, auth.source]), ['sk-stored', 'auth.json']);
		const groq = catalog.models.find((model) => model.provider === 'groq')!;
		assert.deepEqual(await catalog.requestAuth(groq, { commandCache: new Map() }).then((auth) => [auth.apiKey, auth.source]), ['gsk-from-models-json', 'models.json']);
		assert.equal(await catalog.credentialSource('openai'), 'auth.json');
		assert.equal(await catalog.credentialSource('groq'), 'models.json');
		assert.equal(await catalog.credentialSource('mistral'), undefined);
		const choices = await listUsableModels(await loadPiAi(), dir.dir);
		assert.deepEqual([...new Set(choices.map((choice) => choice.ref.split('/')[0]))].sort(), ['groq', 'openai']);
	});

	it('reads a bare variable name as the literal key (Pi 0.77 and later), and says so if the provider rejects it', async () => {
		process.env.OPENAI_LOOKS_LIKE_A_NAME = 'sk-not-used';
		try {
			const { catalog } = await catalogFor({ auth: { openai: { type: 'api_key', key: 'OPENAI_LOOKS_LIKE_A_NAME' } } });
			const auth = await catalog.requestAuth(catalog.find('openai', 'gpt-4o-mini')!, { commandCache: new Map() });
			assert.equal(auth.apiKey, 'OPENAI_LOOKS_LIKE_A_NAME');
			assert.match(auth.unsetVariableHint ?? '', /Pi reads a value literally unless it is written "\$OPENAI_LOOKS_LIKE_A_NAME" \(since Pi 0\.77\)/);
		} finally {
			delete process.env.OPENAI_LOOKS_LIKE_A_NAME;
		}
	});

	it('says that Pi 1.0.3 renamed azure-openai-responses to azure, wherever the old name is used', async () => {
		const { catalog } = await catalogFor({
			auth: { 'azure-openai-responses': { type: 'api_key', key: 'k' } },
			extraProviders: { 'azure-openai-responses': { baseUrl: 'https://example.openai.azure.com/openai/v1' } },
		});
		assert.ok(catalog.notes.some((note) => /auth\.json has an entry for "azure-openai-responses", which this Pi ignores\. Pi 1\.0\.3 renamed the provider "azure-openai-responses" to "azure"/.test(note)), catalog.notes.join('\n'));
		assert.ok(catalog.notes.some((note) => /models\.json has an entry for "azure-openai-responses"/.test(note)), catalog.notes.join('\n'));
		assert.throws(() => resolveSummarizerModel(catalog, 'azure-openai-responses/gpt-5.4', undefined), /Unknown provider "azure-openai-responses".*Pi 1\.0\.3 renamed the provider "azure-openai-responses" to "azure": use "azure" in auth\.json, models\.json, settings\.json and model references/);
	});

	it('leaves a built-in provider as it is when its models.json entry is one Pi refuses, and says why', async () => {
		const { catalog } = await catalogFor({ extraProviders: { anthropic: {}, mine: { baseUrl: 'http://x/v1', models: [{ id: 'm' }] } } });
		assert.ok(catalog.notes.some((note) => /provider "anthropic" in .*models\.json is not used: it must set "baseUrl"/.test(note)), catalog.notes.join('\n'));
		assert.ok(catalog.notes.some((note) => /provider "mine" in .*models\.json is not used: model m has no "api"/.test(note)), catalog.notes.join('\n'));
		assert.equal(catalog.find('anthropic', 'claude-sonnet-5')?.baseUrl, 'https://api.anthropic.com');
		assert.equal(catalog.find('mine', 'm'), undefined);
	});

	it('names a "$NAME" key whose variable is unset', async () => {
		const { catalog } = await catalogFor({ serverUrl: 'http://127.0.0.1:9', providerApiKey: '$PI_CONDENSE_UNSET_VARIABLE' });
		const error = await rejectsWithKind(catalog.requestAuth(catalog.find('fake-llm', 'fake-model')!, { commandCache: new Map() }), 'credentials');
		assert.match(error.message, /"apiKey" of provider "fake-llm" in .*models\.json names the environment variable PI_CONDENSE_UNSET_VARIABLE, which is not set/);
	});
});

/**
 * Credential resolution in Pi's order (auth.json, environment, models.json apiKey), with real
 * files in a temp agent dir, real shell commands, and pi-ai's own environment lookup.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readAuthFile } from '../../../../src/node/llm/authFile';
import { credentialSource, resolveRequestAuth, type RequestAuth } from '../../../../src/node/llm/credentials';
import { findModel, loadModelCatalog } from '../../../../src/node/llm/modelCatalog';
import { createPiAiSummarizer } from '../../../../src/node/llm/piAiSummarizer';
import { createFakeAgentDir, type FakeAgentDir, type FakeAgentDirOptions } from '../../../support/fakeAgentDir';
import { startFakeLlmServer } from '../../../support/fakeLlmServer';
import { legacyPiAi, loadPiAi, rejectsWithKind, testSettings } from '../../../support/piAiForTests';

const SENTINEL = 'sk-SENTINEL-7f3a9c1e5b2d4680';
const OPENAI_ENV = 'OPENAI_API_KEY';

describe('credentials with pi-ai 0.7x (Pi 0.73 order: auth.json, environment, models.json)', () => {
	const dirs: FakeAgentDir[] = [];
	const savedEnv = new Map<string, string | undefined>();

	function setEnv(name: string, value: string | undefined): void {
		if (!savedEnv.has(name)) {
			savedEnv.set(name, process.env[name]);
		}
		if (value === undefined) {
			delete process.env[name];
		} else {
			process.env[name] = value;
		}
	}

	beforeEach(() => setEnv(OPENAI_ENV, undefined));
	afterEach(async () => {
		for (const [name, value] of savedEnv) {
			if (value === undefined) {
				delete process.env[name];
			} else {
				process.env[name] = value;
			}
		}
		savedEnv.clear();
		await Promise.all(dirs.splice(0).map((dir) => dir.cleanup()));
	});

	async function authFor(provider: string, modelId: string, options: FakeAgentDirOptions, extra: { now?: number; commandTimeoutMs?: number } = {}): Promise<RequestAuth> {
		const dir = await createFakeAgentDir(options);
		dirs.push(dir);
		const piAi = await legacyPiAi();
		const auth = await readAuthFile(dir.dir);
		const catalog = await loadModelCatalog(piAi, dir.dir, auth);
		const model = findModel(catalog, provider, modelId);
		assert.ok(model, `model ${provider}/${modelId}`);
		return resolveRequestAuth(model, {
			piAi, agentDir: dir.dir, catalog, auth, commandCache: new Map(),
			now: extra.now === undefined ? undefined : () => extra.now!,
			commandTimeoutMs: extra.commandTimeoutMs,
		});
	}

	const openai = (options: FakeAgentDirOptions, extra?: { now?: number; commandTimeoutMs?: number }) => authFor('openai', 'gpt-4o-mini', options, extra);

	it('runs a !command key through the shell and uses its trimmed stdout', async () => {
		const result = await openai({ auth: { openai: { type: 'api_key', key: '!printf "  sk-from-command \\n"' } } });
		assert.deepEqual(result, { apiKey: 'sk-from-command', source: 'auth.json', headers: undefined });
	});

	it('explains a failing command without repeating it or its output', async () => {
		const error = await rejectsWithKind(openai({ auth: { openai: { type: 'api_key', key: `!echo ${SENTINEL}; exit 3` } } }), 'credentials');
		assert.match(error.message, /key of provider "openai" in .*auth\.json failed with exit code 3/);
		assert.ok(!error.message.includes(SENTINEL));
	});

	it('explains a command that prints nothing', async () => {
		const error = await rejectsWithKind(openai({ auth: { openai: { type: 'api_key', key: '!true' } } }), 'credentials');
		assert.match(error.message, /printed nothing/);
	});

	it('bounds a hanging command, including the processes it started', async function () {
		this.timeout(5000);
		const error = await rejectsWithKind(openai({ auth: { openai: { type: 'api_key', key: '!sleep 30 | cat' } } }, { commandTimeoutMs: 200 }), 'credentials');
		assert.match(error.message, /did not finish within 0\.2 s/);
	});

	it('bounds the output of a command', async () => {
		const error = await rejectsWithKind(openai({ auth: { openai: { type: 'api_key', key: '!yes sk-key-line' } } }), 'credentials');
		assert.match(error.message, /printed more than 64 KiB/);
	});

	it('uses the value of an environment variable named by the key', async () => {
		setEnv('PI_CONDENSE_TEST_KEY_VAR', 'sk-from-named-variable');
		const result = await openai({ auth: { openai: { type: 'api_key', key: 'PI_CONDENSE_TEST_KEY_VAR' } } });
		assert.equal(result.apiKey, 'sk-from-named-variable');
	});

	it('uses the name itself when that environment variable is unset (Pi: env value or the literal)', async () => {
		setEnv('PI_CONDENSE_TEST_UNSET_VAR', undefined);
		const result = await openai({ auth: { openai: { type: 'api_key', key: 'PI_CONDENSE_TEST_UNSET_VAR' } } });
		assert.equal(result.apiKey, 'PI_CONDENSE_TEST_UNSET_VAR');
	});

	it('uses a literal key, ahead of the environment', async () => {
		setEnv(OPENAI_ENV, 'sk-from-env');
		const result = await openai({ auth: { openai: { type: 'api_key', key: 'sk-literal-key' } } });
		assert.deepEqual([result.apiKey, result.source], ['sk-literal-key', 'auth.json']);
	});

	it('uses an unexpired OAuth token', async () => {
		const auth = { anthropic: { type: 'oauth', access: 'sk-ant-oat-test-access', refresh: 'refresh-token', expires: 2_000_000 } };
		const result = await authFor('anthropic', 'claude-sonnet-4-5', { auth }, { now: 1_000_000 });
		assert.deepEqual([result.apiKey, result.source], ['sk-ant-oat-test-access', 'auth.json (OAuth)']);
	});

	it('refuses an expired OAuth token and tells the user to run pi, without showing tokens', async () => {
		setEnv('ANTHROPIC_API_KEY', 'sk-env-not-used');
		const auth = { anthropic: { type: 'oauth', access: SENTINEL, refresh: `${SENTINEL}-refresh`, expires: 1_000_000 } };
		const error = await rejectsWithKind(authFor('anthropic', 'claude-sonnet-4-5', { auth }, { now: 1_000_000 }), 'credentials');
		assert.match(error.message, /expired at 1970-01-01T00:16:40\.000Z/);
		assert.match(error.message, /Run `pi`/);
		assert.ok(!error.message.includes(SENTINEL));
	});

	it('falls back to the provider environment variable (pi-ai getEnvApiKey)', async () => {
		setEnv(OPENAI_ENV, 'sk-from-env');
		const result = await openai({});
		assert.deepEqual([result.apiKey, result.source], ['sk-from-env', 'environment']);
	});

	it('falls back to models.json apiKey last, resolved like the others', async () => {
		const result = await openai({ extraProviders: { openai: { baseUrl: 'https://proxy.example/v1', apiKey: '!printf sk-from-models-json' } } });
		assert.deepEqual([result.apiKey, result.source], ['sk-from-models-json', 'models.json']);
	});

	it('says what to set when nothing supplies a key, naming the provider and its variable', async () => {
		const error = await rejectsWithKind(openai({}), 'credentials');
		assert.match(error.message, /No API key for provider "openai": set OPENAI_API_KEY, or add a key for "openai" to .*auth\.json/);
	});

	it('mentions an unreadable auth.json in that message, without its contents', async () => {
		const dir = await createFakeAgentDir({});
		dirs.push(dir);
		await writeFile(join(dir.dir, 'auth.json'), `{"openai": {"type": "api_key", "key": "${SENTINEL}"`);
		const piAi = await legacyPiAi();
		const auth = await readAuthFile(dir.dir);
		const catalog = await loadModelCatalog(piAi, dir.dir, auth);
		const error = await rejectsWithKind(resolveRequestAuth(findModel(catalog, 'openai', 'gpt-4o-mini')!, { piAi, agentDir: dir.dir, catalog, auth }), 'credentials');
		assert.match(error.message, /auth\.json is not valid JSON/);
		assert.ok(!error.message.includes(SENTINEL));
	});

	it('runs an auth.json command once per resolver cache, as Pi caches it per process', async () => {
		const dir = await createFakeAgentDir({});
		dirs.push(dir);
		const counter = join(dir.dir, 'runs');
		const command = `!n=$(cat ${counter} 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${counter}; echo sk-run-$n`;
		await writeFile(join(dir.dir, 'auth.json'), JSON.stringify({ openai: { type: 'api_key', key: command } }));
		const piAi = await legacyPiAi();
		const auth = await readAuthFile(dir.dir);
		const catalog = await loadModelCatalog(piAi, dir.dir, auth);
		const model = findModel(catalog, 'openai', 'gpt-4o-mini')!;
		const commandCache = new Map<string, string>();
		const resolve = (cache: Map<string, string>) => resolveRequestAuth(model, { piAi, agentDir: dir.dir, catalog, auth, commandCache: cache });
		assert.equal((await resolve(commandCache)).apiKey, 'sk-run-1');
		assert.equal((await resolve(commandCache)).apiKey, 'sk-run-1');
		assert.equal((await resolve(new Map())).apiKey, 'sk-run-2');
	});

	it('reports where a key would come from without running commands', async () => {
		const dir = await createFakeAgentDir({
			serverUrl: 'http://127.0.0.1:9',
			auth: { openai: { type: 'api_key', key: '!exit 1' } },
		});
		dirs.push(dir);
		const piAi = await legacyPiAi();
		const auth = await readAuthFile(dir.dir);
		const catalog = await loadModelCatalog(piAi, dir.dir, auth);
		assert.equal(credentialSource('openai', { piAi, catalog, auth }), 'auth.json');
		assert.equal(credentialSource('fake-llm', { piAi, catalog, auth }), 'models.json');
		assert.equal(credentialSource('groq', { piAi, catalog, auth }), undefined);
	});
});

describe('the sentinel key never appears in any error', () => {
	it('covers every failing path of the summarizer with the key planted in auth.json', async () => {
		const server = await startFakeLlmServer();
		const dir = await createFakeAgentDir({ serverUrl: server.url, auth: { 'fake-llm': { type: 'api_key', key: SENTINEL } } });
		try {
			server.enqueue(
				{ status: 500, errorMessage: `bad key ${SENTINEL}` },
				{ status: 403, errorMessage: `Authorization: Bearer ${SENTINEL} rejected` },
				{ text: 'cut', dropAfterChars: 1 },
				{ text: '' },
				{ text: 'x', finishReason: 'length' },
				{ text: 'x', finishReason: 'content_filter' },
				{ hang: true },
			);
			// An idle limit only for the call the server never answers: the others must end as the server says, however slowly.
			const summarizer = (summarizerIdleTimeoutMs: number) => createPiAiSummarizer({
				loadPiAi, agentDir: dir.dir, maxRetries: 0,
				settings: testSettings(dir.modelRef, { summarizerIdleTimeoutMs }),
			});
			const answering = summarizer(0);
			const hanging = summarizer(150);
			const messages: string[] = [];
			for (let i = 0; i < 7; i++) {
				await (i < 6 ? answering : hanging).summarize({ prompt: `p${i}` }).then(
					() => assert.fail('expected a failure'),
					(error: Error) => messages.push(error.message),
				);
			}
			assert.equal(messages.length, 7);
			assert.ok(server.requests.every((request) => request.headers.authorization === `Bearer ${SENTINEL}`));
			for (const message of messages) {
				assert.ok(!message.includes(SENTINEL), message);
			}
		} finally {
			await server.close();
			await dir.cleanup();
		}
	});
});

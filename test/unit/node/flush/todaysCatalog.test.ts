/**
 * Today's pi-ai, the user's own first (issue 27, point 5). On a Pi 1.6-shaped agent dir whose session's model
 * exists only in today's catalog (`anthropic/claude-sonnet-5`: pi-ai 1.6.0 has it, pi-ai 0.73.1 does not), with
 * models.json pointing the built-in `anthropic` provider at a real server on 127.0.0.1, `now` with
 * `summarizerModel: "default"` calls that model and writes its summaries: nothing is written offline for lack of
 * the model. Through the bundled pi-ai in the pi-ai worker (as the extension runs it) and through the pi-ai of an
 * installed Pi 1.6.0 (as a trusted workspace and the CLI do); an installed Pi 0.73.1, whose catalog lacks the
 * model, is followed as it is (offline, naming the pi-ai that did not know it).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { OFFLINE_HEADER } from '../../../../src/engine/flush';
import { inProcessSummarizers, type SummarizerFactory } from '../../../../src/node/llm/defaultSummarizer';
import { flushSession } from '../../../../src/node/flush/flushSession';
import { PiAiWorker } from '../../../../src/node/llm/worker/piAiWorker';
import { createFakeAgentDir, type FakeAgentDir } from '../../../support/fakeAgentDir';
import { promptOf, startFakeLlmServer, type FakeLlmServer } from '../../../support/fakeLlmServer';
import { testWriteOptions } from '../../../support/flushEnvironment';
import { flushConfig, toolSession } from '../../../support/flushFixtures';
import { installPiGlobally } from '../../../support/installedPi';
import { BUNDLED_ONLY, distDir } from '../../../support/piAiForTests';
import { WRITER_RELEASE } from '../../../support/releases';
import { TempDir } from '../../../support/tempSession';
import { useUnsetEnvVars } from '../../../support/unsetEnvVars';
import { testWork } from '../../../support/testWork';

const KEY = 'sk-ant-api03-test-key-for-the-local-server';
const REPLY = '- [[1:bash]] read the first log\n- [[2:read]] read the first source';

describe('flush: a session model only today\'s pi-ai knows (anthropic/claude-sonnet-5)', function () {
	this.timeout(60000);
	useUnsetEnvVars(['ANTHROPIC_API_KEY', 'ANTHROPIC_OAUTH_TOKEN', 'ANTHROPIC_AUTH_TOKEN']);
	let server: FakeLlmServer;
	let agent: FakeAgentDir;
	let dir: TempDir;
	const cleanups: (() => Promise<void>)[] = [];

	beforeEach(async () => {
		server = await startFakeLlmServer({ text: REPLY });
		// Pi 1.6's files: auth.json keyed by provider, models.json overriding a built-in provider's base URL,
		// settings.json with pi-condense installed as `pi install npm:pi-condense` leaves it.
		agent = await createFakeAgentDir({
			extraProviders: { anthropic: { baseUrl: server.url } },
			auth: { anthropic: { type: 'api_key', key: KEY } },
			settings: { defaultProvider: 'anthropic', defaultModel: 'claude-sonnet-5' },
		});
		dir = new TempDir();
	});
	afterEach(async () => {
		await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
		await server.close();
		await agent.cleanup();
		dir.remove();
	});

	async function flushWith(summarizers: SummarizerFactory): Promise<{ path: string; result: Awaited<ReturnType<typeof flushSession>> }> {
		const session = toolSession(1);
		session.entry({ type: 'model_change', provider: 'anthropic', modelId: 'claude-sonnet-5' });
		const path = dir.file('s.jsonl', session.text());
		const result = await flushSession(testWork, {
			sessionPath: path, agentDir: agent.dir, mode: 'now', config: flushConfig({ summarizerModel: 'default' }),
			rules: WRITER_RELEASE, summarizers, writeOptions: testWriteOptions,
		});
		return { path, result };
	}

	const summaries = (path: string): string[] => readFileSync(path, 'utf8').trimEnd().split('\n')
		.map((line) => JSON.parse(line) as { customType?: string; content?: string })
		.filter((entry) => entry.customType === 'context-prune-summary').map((entry) => entry.content ?? '');

	function assertCalledTheModel(path: string, result: Awaited<ReturnType<typeof flushSession>>): void {
		assert.equal(result.kind, 'written', result.message);
		assert.equal(result.summarizer, 'anthropic/claude-sonnet-5');
		assert.ok(![...result.notices].some((notice) => /offline/.test(notice)), [...result.notices].join('\n'));
		assert.equal(server.requests.length, 1);
		const request = server.requests[0]!;
		assert.equal(request.path.split('?')[0], '/v1/messages');
		assert.equal(request.body.model, 'claude-sonnet-5');
		assert.equal(request.headers['x-api-key'], KEY);
		assert.match(promptOf(request), /<tool-call-batch/);
		assert.deepEqual(summaries(path).map((summary) => summary.split('\n')[0]), ['- `t1` read the first log']);
	}

	it('calls it through the bundled pi-ai in the pi-ai worker, as the extension does', async () => {
		const worker = new PiAiWorker({ distDir, installedPiAi: () => BUNDLED_ONLY });
		cleanups.push(() => worker.dispose());
		const { path, result } = await flushWith(worker.summarizers);
		assertCalledTheModel(path, result);
		assert.equal(worker.origin?.kind, 'bundled');
		assert.equal(worker.origin?.piAiVersion, '1.6.0');
	});

	it('calls it through the pi-ai of an installed Pi 1.6.0, found from the pi on the PATH', async () => {
		const pi = await installPiGlobally('1.6.0');
		cleanups.push(pi.cleanup);
		const worker = new PiAiWorker({ distDir, installedPiAi: () => ({ allowed: true, env: { PATH: pi.binDir } }) });
		cleanups.push(() => worker.dispose());
		const { path, result } = await flushWith(worker.summarizers);
		assertCalledTheModel(path, result);
		assert.equal(worker.origin?.kind, 'installed');
		assert.equal(worker.origin?.pi?.version, '1.6.0');
	});

	it('follows an installed Pi 0.73.1 as it is: its pi-ai does not know the model, so summaries are offline and the notice says why', async () => {
		const pi = await installPiGlobally('0.73.1');
		cleanups.push(pi.cleanup);
		const { path, result } = await flushWith(inProcessSummarizers(pi.loader()));
		assert.equal(result.kind, 'written', result.message);
		assert.match([...result.notices][0] ?? '', /^pruner: the session's model anthropic\/claude-sonnet-5 is not known to @mariozechner\/pi-ai 0\.73\.1 of the installed Pi 0\.73\.1 \(.*\) or models\.json; summaries are written offline/);
		assert.ok(summaries(path)[0]?.startsWith(OFFLINE_HEADER));
		assert.equal(server.requests.length, 0);
	});
});

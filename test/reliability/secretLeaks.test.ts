/**
 * Sentinel keys planted in every place a credential can come from (auth.json literal and
 * `!command`, an environment variable named in auth.json, models.json `apiKey` and headers, OAuth
 * tokens), then every output we can capture searched for them: thrown messages and stacks, a
 * capturing Logger, console and stdout/stderr of this process, summarizer results, session files
 * and settings.json written afterwards, and the CLI's stdout/stderr (also when pointed at the
 * secret files by mistake). The VS Code host and webview are covered by their own suites.
 */
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger, SummarizeResult } from '../../src/engine/ports';
import { createPiAiSummarizer } from '../../src/node/llm/piAiSummarizer';
import { updatePruneSettings } from '../../src/node/settings/updatePruneSettings';
import { writeEntriesToSession } from '../../src/node/write';
import { runCli } from '../support/fuzz/cliRun';
import { createFakeAgentDir, type FakeAgentDir, type FakeAgentDirOptions } from '../support/fakeAgentDir';
import { startFakeLlmServer, type FakeLlmServer, type FakeReply, type RecordedRequest } from '../support/fakeLlmServer';
import { piCondenseSessionsDir } from '../support/paths';
import { installPiGlobally } from '../support/installedPi';
import { loadPiAi, testSettings } from '../support/piAiForTests';
import { noPiRunning } from '../support/tempSession';
import { useTempDir } from '../support/tempDirs';
import { testWork } from '../support/testWork';

const S = {
	authLiteral: 'sk-SENTINEL-auth-literal-3b9f0c2e',
	authCommand: 'sk-SENTINEL-auth-command-8d1a7e44',
	env: 'sk-SENTINEL-env-variable-5c6f2a90',
	models: 'sk-SENTINEL-models-apikey-1e7d3b58',
	header: 'hdr-SENTINEL-header-token-9a4c0f17',
	oauthAccess: 'sk-ant-oat01-SENTINEL-access-77ab21',
	oauthRefresh: 'sk-ant-ort01-SENTINEL-refresh-88cd43',
} as const;
const ALL = Object.values(S);
const ENV_NAME = 'PI_CONDENSE_SENTINEL_KEY';

/** Everything written through a Logger, console, or this process's stdout/stderr while capturing. */
class OutputCapture {
	readonly lines: string[] = [];
	readonly logger: Logger = {
		trace: (m) => this.lines.push(`trace ${m}`),
		debug: (m) => this.lines.push(`debug ${m}`),
		info: (m) => this.lines.push(`info ${m}`),
		warn: (m) => this.lines.push(`warn ${m}`),
		error: (m) => this.lines.push(`error ${m instanceof Error ? m.stack ?? m.message : m}`),
	};
	private restore: (() => void) | undefined;

	start(): void {
		const saved = { ...console };
		const stdoutWrite = Object.getOwnPropertyDescriptor(process.stdout, 'write');
		const stderrWrite = Object.getOwnPropertyDescriptor(process.stderr, 'write');
		const record = (...args: unknown[]): void => {
			this.lines.push(args.map(String).join(' '));
		};
		Object.assign(console, { log: record, info: record, warn: record, error: record, debug: record });
		const writer = (chunk: unknown): boolean => {
			this.lines.push(String(chunk));
			return true;
		};
		Object.defineProperty(process.stdout, 'write', { value: writer, configurable: true, writable: true });
		Object.defineProperty(process.stderr, 'write', { value: writer, configurable: true, writable: true });
		this.restore = () => {
			Object.assign(console, saved);
			restoreProperty(process.stdout, 'write', stdoutWrite);
			restoreProperty(process.stderr, 'write', stderrWrite);
		};
	}

	stop(): void {
		this.restore?.();
		this.restore = undefined;
	}
}

function restoreProperty(target: object, key: string, descriptor: PropertyDescriptor | undefined): void {
	if (descriptor) {
		Object.defineProperty(target, key, descriptor);
	} else {
		delete (target as Record<string, unknown>)[key];
	}
}

/** No secret, and not even its last 8 characters (a quote of the text around an error may cut it). */
function assertNoSecret(where: string, text: string): void {
	for (const secret of ALL) {
		assert.ok(!text.includes(secret.slice(-8)), `${where} contains (part of) the planted secret ${secret}:\n${text.slice(0, 2000)}`);
	}
}

/** A reply echoing every credential the request carried, as a careless or hostile server might. */
const echo = (request: RecordedRequest): string => `summary. auth=${String(request.headers.authorization)} token=${String(request.headers['x-api-token'])}`;

interface KeySource {
	readonly name: string;
	readonly agent: FakeAgentDirOptions;
	/** The key the fake server receives. */
	readonly key: string;
}

const SOURCES: readonly KeySource[] = [
	{ name: 'auth.json literal', agent: { auth: { 'fake-llm': { type: 'api_key', key: S.authLiteral } } }, key: S.authLiteral },
	{ name: 'auth.json !command', agent: { auth: { 'fake-llm': { type: 'api_key', key: `!printf %s ${S.authCommand}` } } }, key: S.authCommand },
	{ name: 'environment variable named in auth.json ($NAME, Pi 1.x)', agent: { auth: { 'fake-llm': { type: 'api_key', key: `$${ENV_NAME}` } } }, key: S.env },
	{ name: 'models.json apiKey and headers', agent: { providerApiKey: S.models, providerFields: { headers: { 'X-Api-Token': S.header } } }, key: S.models },
];

describe('planted secrets never leak', function () {
	this.timeout(60_000);
	const temp = useTempDir('secrets');
	let server: FakeLlmServer;
	const dirs: FakeAgentDir[] = [];
	const capture = new OutputCapture();

	beforeEach(async () => {
		process.env[ENV_NAME] = S.env;
		server = await startFakeLlmServer();
	});
	afterEach(async () => {
		capture.stop();
		delete process.env[ENV_NAME];
		await server.close();
		await Promise.all(dirs.splice(0).map((dir) => dir.cleanup()));
	});

	for (const source of SOURCES) {
		it(`${source.name}: every summarizer outcome, the session file and settings.json written after`, async () => {
			const dir = await createFakeAgentDir({ serverUrl: server.url, ...source.agent });
			dirs.push(dir);
			const replies: FakeReply[] = [
				{ text: echo },
				{ status: 401, errorMessage: `Incorrect API key provided: ${source.key}` },
				{ status: 500, errorMessage: `upstream said Authorization: Bearer ${source.key}${source.agent.providerFields ? `; token ${S.header}` : ''}` },
				{ text: `partial ${source.key}`, dropAfterChars: 20 },
				{ text: echo, finishReason: 'length' },
				{ text: '' },
				{ text: echo, chunkChars: 4, chunkDelayMs: 20 },
				// Last: its call may time out before the server has taken it, and then no later call gets it instead.
				{ hang: true },
			];
			server.enqueue(...replies);
			// An idle limit only for the call the server never answers: the others end as the server says, however slowly.
			const summarizer = (summarizerIdleTimeoutMs: number) => createPiAiSummarizer({
				loadPiAi, agentDir: dir.dir, maxRetries: 0, logger: capture.logger,
				settings: testSettings(dir.modelRef, { summarizerIdleTimeoutMs }),
			});
			const answering = summarizer(0);
			const hanging = summarizer(300);
			const results: SummarizeResult[] = [];
			const failures: string[] = [];
			capture.start();
			try {
				for (let i = 0; i < replies.length; i++) {
					const controller = new AbortController();
					const streamed = replies[i]?.chunkChars !== undefined;
					const call = (replies[i]?.hang ? hanging : answering).summarize({
						prompt: `prompt ${i}`, signal: controller.signal,
						onTextProgress: (chars) => streamed && chars > 8 && controller.abort(),
					});
					await call.then((result) => results.push(result), (error: Error) => failures.push(`${error.message}\n${error.stack ?? ''}`));
				}
			} finally {
				capture.stop();
			}
			assert.ok(server.requests.every((request) => request.headers.authorization === `Bearer ${source.key}`), 'the key did reach the server');
			assert.equal(results.length, 1, failures.join('\n'));
			assert.equal(failures.length, replies.length - 1);
			assertNoSecret('an error message or stack', failures.join('\n'));
			assertNoSecret('the summarizer result', JSON.stringify(results));
			assertNoSecret('the log or console', capture.lines.join('\n'));
			assert.ok(capture.lines.some((line) => line.includes('summarizer: fake-llm/fake-model')), 'the logger was used');

			const session = join(temp(), 'session.jsonl');
			copyFileSync(join(piCondenseSessionsDir, 'basic', 'session.jsonl'), session);
			const written = await writeEntriesToSession(testWork, session, [{
				type: 'custom_message', customType: 'context-prune-summary', content: results[0]?.text ?? '', display: true,
				details: { toolCallRefs: [], toolNames: [], turnIndex: 0, timestamp: 0, model: results[0]?.model, usage: results[0]?.usage },
			}], { quietMs: 0, checkPiHolders: noPiRunning });
			assert.equal(written.kind, 'written');
			assertNoSecret('the session file', readFileSync(session, 'utf8'));

			await updatePruneSettings(dir.dir, (current) => ({ ...current, summarizerModel: dir.modelRef, enabled: true }));
			assertNoSecret('settings.json', readFileSync(join(dir.dir, 'settings.json'), 'utf8'));
		});
	}

	// An expired login with Pi 0.73's pi-ai (the current one refreshes it over the network: authJsonStore.test.ts
	// refreshes against a local token server, and checks the tokens stay out of its messages).
	it('OAuth tokens: an expired login (Pi 0.73) and a failing request name no token', async () => {
		const dir = await createFakeAgentDir({
			auth: { anthropic: { type: 'oauth', access: S.oauthAccess, refresh: S.oauthRefresh, expires: 1_000_000 } },
			extraProviders: { anthropic: { baseUrl: 'http://127.0.0.1:9' } },
		});
		dirs.push(dir);
		const pi = await installPiGlobally('0.73.1');
		dirs.push({ ...dir, cleanup: pi.cleanup });
		const expired = createPiAiSummarizer({ loadPiAi: pi.loader(), agentDir: dir.dir, maxRetries: 0, logger: capture.logger, settings: testSettings('anthropic/claude-sonnet-4-5') });
		const messages: string[] = [];
		capture.start();
		try {
			await expired.summarize({ prompt: 'p' }).catch((error: Error) => messages.push(`${error.message}\n${error.stack ?? ''}`));
			writeFileSync(join(dir.dir, 'auth.json'), JSON.stringify({ anthropic: { type: 'oauth', access: S.oauthAccess, refresh: S.oauthRefresh, expires: Date.now() + 3_600_000 } }));
			await expired.summarize({ prompt: 'p' }).catch((error: Error) => messages.push(`${error.message}\n${error.stack ?? ''}`));
		} finally {
			capture.stop();
		}
		assert.equal(messages.length, 2);
		assert.match(messages[0] ?? '', /expired/);
		assertNoSecret('an OAuth error', messages.join('\n'));
		assertNoSecret('the log or console', capture.lines.join('\n'));
	});

	it('the CLI prints no secret, for every command, also when pointed at the secret files by mistake', async () => {
		const dir = await createFakeAgentDir({
			serverUrl: 'http://127.0.0.1:9',
			providerApiKey: S.models,
			providerFields: { headers: { 'X-Api-Token': S.header } },
			auth: { 'fake-llm': { type: 'api_key', key: S.authLiteral }, anthropic: { type: 'oauth', access: S.oauthAccess, refresh: S.oauthRefresh, expires: 1 } },
			settings: { contextPrune: { enabled: true, summarizerModel: 'fake-llm/fake-model' } },
		});
		dirs.push(dir);
		const session = join(piCondenseSessionsDir, 'basic', 'session.jsonl');
		const brokenModels = join(temp(), 'models.json');
		writeFileSync(brokenModels, `{"providers": {"x": {"headers": ["${S.models}",nope]}}}`);
		// A settings.json broken right next to a secret: the warning must not quote it.
		writeFileSync(join(temp(), 'settings.json'), `{"notes": ["${S.env}",oops]}`);
		const runs: string[][] = [
			['status', session], ['stats', session], ['tree', session], ['preview', session], ['preview', session, '--json'],
			['query', session, 't1', 'call_p1_t2_0'],
			['status', session, '--config', join(dir.dir, 'auth.json')],
			['status', session, '--config', join(dir.dir, 'models.json')],
			['status', session, '--config', brokenModels],
			['status', session, '--agent-dir', temp()],
		];
		for (const args of runs) {
			const out = await runCli(args, 20_000, { PI_CODING_AGENT_DIR: dir.dir, [ENV_NAME]: S.env });
			assert.ok(out.code === 0 || out.code === 2, `${args.join(' ')} exited ${out.code}: ${out.stderr}`);
			assertNoSecret(`pi-condense ${args.join(' ')} stdout`, out.stdout);
			assertNoSecret(`pi-condense ${args.join(' ')} stderr`, out.stderr);
		}
	});
});

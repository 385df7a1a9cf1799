/**
 * The pi-ai summarizer through the real pi-ai client (the built `dist/pi-ai.js`, the bundled pi-ai) against a
 * real HTTP server speaking OpenAI chat completions on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import type { AssistantMessageEvent } from '@earendil-works/pi-ai';
import type { SummarizerError } from '../../../../src/engine/ports';
import type { PiAiLoader } from '../../../../src/node/llm/library/modelLibrary';
import { createPiAiSummarizer, type PiAiSummarizerOptions, type SummarizerSettings } from '../../../../src/node/llm/piAiSummarizer';
import { createFakeAgentDir, type FakeAgentDir, type FakeAgentDirOptions } from '../../../support/fakeAgentDir';
import { promptOf, startFakeLlmServer, type FakeLlmServer } from '../../../support/fakeLlmServer';
import { loadPiAi, rejectsWithKind, testSettings } from '../../../support/piAiForTests';

describe('piAiSummarizer (real pi-ai, fake OpenAI server)', () => {
	let server: FakeLlmServer;
	const dirs: FakeAgentDir[] = [];

	beforeEach(async () => {
		server = await startFakeLlmServer();
	});
	afterEach(async () => {
		await server.close();
		await Promise.all(dirs.splice(0).map((dir) => dir.cleanup()));
	});

	async function summarizerFor(
		agent: Omit<FakeAgentDirOptions, 'serverUrl'> = {},
		settings: Partial<SummarizerSettings> = {},
		extra: Partial<PiAiSummarizerOptions> = {},
	) {
		const dir = await createFakeAgentDir({ serverUrl: server.url, providerApiKey: 'sk-test-provider-key', ...agent });
		dirs.push(dir);
		return createPiAiSummarizer({
			loadPiAi, agentDir: dir.dir, settings: testSettings(dir.modelRef, settings), maxRetries: 0, ...extra,
		});
	}

	it('sends one user message with the prompt as one text block (as pi-condense asks), no system prompt and no output cap, and returns the streamed text', async () => {
		server.enqueue({ text: '  - [[1:read]] read the file\n' });
		// A model that declares an output limit: pi-ai's streamSimple would send it as max_completion_tokens; the release sends none.
		const summarizer = await summarizerFor({ models: [{ id: 'fake-model', maxTokens: 4096 }] });
		assert.equal(summarizer.label, 'fake-llm/fake-model');
		const result = await summarizer.summarize({ prompt: 'Summarize this.\n\n<tool-call-batch>x</tool-call-batch>' });
		assert.equal(result.text, '- [[1:read]] read the file');
		assert.equal(result.model, 'fake-llm/fake-model');
		assert.equal(server.requests.length, 1);
		const request = server.requests[0]!;
		assert.equal(request.path, '/v1/chat/completions');
		assert.equal(request.body.model, 'fake-model');
		assert.equal(request.body.stream, true);
		assert.deepEqual(request.body.stream_options, { include_usage: true });
		assert.deepEqual(request.body.messages, [{ role: 'user', content: [{ type: 'text', text: 'Summarize this.\n\n<tool-call-batch>x</tool-call-batch>' }] }]);
		assert.deepEqual(Object.keys(request.body).sort(), ['messages', 'model', 'store', 'stream', 'stream_options']);
		assert.equal(promptOf(request), 'Summarize this.\n\n<tool-call-batch>x</tool-call-batch>');
		assert.equal(request.headers.authorization, 'Bearer sk-test-provider-key');
	});

	it('answers with a function of the request, streams progress, and reports usage with cost', async () => {
		const reply = 'labels: ' + promptOfLabels('[[1:read]] [[2:bash]]') + ' '.repeat(1) + 'x'.repeat(40);
		server.enqueue({
			text: (request) => 'labels: ' + promptOfLabels(promptOf(request)) + ' ' + 'x'.repeat(40),
			chunkChars: 7,
			usage: { promptTokens: 1000, completionTokens: 200, cachedTokens: 100 },
		});
		const summarizer = await summarizerFor({
			models: [{ id: 'fake-model', cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } }],
		});
		const progress: number[] = [];
		const result = await summarizer.summarize({ prompt: 'batch [[1:read]] and [[2:bash]]', onTextProgress: (chars) => progress.push(chars) });
		assert.equal(result.text, reply);
		assert.ok(progress.length >= 3, `progress calls: ${progress.join(',')}`);
		assert.deepEqual(progress, [...progress].sort((a, b) => a - b));
		assert.equal(progress.at(-1), reply.length);
		assert.equal(result.usage.input, 900);
		assert.equal(result.usage.cacheRead, 100);
		assert.equal(result.usage.output, 200);
		assert.equal(result.usage.totalTokens, 1200);
		assert.ok(Math.abs(result.usage.cost.input - 900 * 3 / 1e6) < 1e-12);
		assert.ok(Math.abs(result.usage.cost.output - 200 * 15 / 1e6) < 1e-12);
		assert.ok(Math.abs(result.usage.cost.total - (900 * 3 + 200 * 15 + 100 * 0.3) / 1e6) < 1e-12);
	});

	it('turns HTTP 500 into an error naming the model and the status, without the key', async () => {
		server.enqueue({ status: 500, errorMessage: 'upstream exploded' });
		const summarizer = await summarizerFor();
		const error = await rejectsWithKind(summarizer.summarize({ prompt: 'p' }), 'error');
		assert.match(error.message, /fake-llm\/fake-model/);
		assert.match(error.message, /500/);
		assert.match(error.message, /upstream exploded/);
		assert.doesNotMatch(error.message, /sk-test-provider-key/);
		assert.equal(server.requests.length, 1);
	});

	it('lets the SDK retry a 500 when retries are allowed', async () => {
		server.enqueue({ status: 500, headers: { 'retry-after-ms': '1' } }, { text: 'second time lucky' });
		const summarizer = await summarizerFor({}, {}, { maxRetries: 1 });
		const result = await summarizer.summarize({ prompt: 'p' });
		assert.equal(result.text, 'second time lucky');
		assert.equal(server.requests.length, 2);
	});

	it('aborts a stream that goes quiet (idle timeout)', async () => {
		server.enqueue({ text: 'partial summary that never ends', stallAfterChars: 7 });
		// Long enough for the first characters to arrive on a loaded machine; the stall is for good, so it expires.
		const summarizer = await summarizerFor({}, { summarizerIdleTimeoutMs: 2000, summarizerMaxTimeoutMs: 60_000 });
		const progress: number[] = [];
		const error = await rejectsWithKind(summarizer.summarize({ prompt: 'p', onTextProgress: (chars) => progress.push(chars) }), 'timeout');
		assert.match(error.message, /^pi-condense: summarizer .+ stalled \(no output for 2s\); summarizer call abandoned$/);
		assert.deepEqual(progress, [7]);
	});

	it('aborts a server that never answers (idle timeout before the first byte)', async () => {
		server.enqueue({ hang: true });
		const summarizer = await summarizerFor({}, { summarizerIdleTimeoutMs: 150, summarizerMaxTimeoutMs: 5000 });
		const error = await rejectsWithKind(summarizer.summarize({ prompt: 'p' }), 'timeout');
		assert.match(error.message, / stalled \(no output for 0s\); summarizer call abandoned$/);
	});

	it('aborts a stream that keeps trickling past the total timeout', async () => {
		server.enqueue({ text: 'y'.repeat(2000), chunkChars: 1, chunkDelayMs: 10 });
		// The whole stream takes 20 s; the ceiling leaves time for its first characters on a loaded machine.
		const summarizer = await summarizerFor({}, { summarizerIdleTimeoutMs: 10_000, summarizerMaxTimeoutMs: 2000 });
		let lastProgress = 0;
		const error = await rejectsWithKind(summarizer.summarize({ prompt: 'p', onTextProgress: (chars) => { lastProgress = chars; } }), 'timeout');
		assert.match(error.message, /^pi-condense: summarizer .+ exceeded 2s ceiling; summarizer call abandoned$/);
		assert.ok(lastProgress > 0 && lastProgress < 2000, `progress ${lastProgress}`);
	});

	it('stops mid-stream when the caller aborts', async () => {
		server.enqueue({ text: 'z'.repeat(500), chunkChars: 5, chunkDelayMs: 10 });
		const summarizer = await summarizerFor();
		const controller = new AbortController();
		const error = await rejectsWithKind(summarizer.summarize({
			prompt: 'p',
			signal: controller.signal,
			onTextProgress: (chars) => {
				if (chars >= 20) {
					controller.abort();
				}
			},
		}), 'aborted');
		assert.match(error.message, /cancelled/);
	});

	it('does not send anything when the signal is already aborted', async () => {
		const summarizer = await summarizerFor();
		await rejectsWithKind(summarizer.summarize({ prompt: 'p', signal: AbortSignal.abort() }), 'aborted');
		assert.equal(server.requests.length, 0);
	});

	it('rejects an empty or whitespace-only reply as unusable', async () => {
		server.enqueue({ text: '' }, { text: ' \n\t ' });
		const summarizer = await summarizerFor();
		await rejectsWithKind(summarizer.summarize({ prompt: 'p' }), 'empty');
		await rejectsWithKind(summarizer.summarize({ prompt: 'p' }), 'empty');
	});

	it('rejects a reply cut off by the output limit (finish_reason "length")', async () => {
		server.enqueue({ text: 'a summary that was cut', finishReason: 'length' });
		const summarizer = await summarizerFor();
		const error = await rejectsWithKind(summarizer.summarize({ prompt: 'p' }), 'length');
		assert.match(error.message, /output limit/);
	});

	it('reports a connection dropped mid-stream as an error', async () => {
		server.enqueue({ text: 'this will be cut short', dropAfterChars: 4 });
		const summarizer = await summarizerFor();
		const error = await rejectsWithKind(summarizer.summarize({ prompt: 'p' }), 'error');
		assert.match(error.message, /fake-llm\/fake-model failed \(after 4 characters of summary\)/);
	});

	it('never repeats the key, even when the provider echoes it back', async () => {
		const sentinel = 'sk-SENTINEL-echoed-0123456789';
		server.enqueue({ status: 401, errorMessage: `Incorrect API key provided: ${sentinel}` });
		const summarizer = await summarizerFor({ auth: { 'fake-llm': { type: 'api_key', key: sentinel } } });
		const error = await rejectsWithKind(summarizer.summarize({ prompt: 'p' }), 'error');
		assert.equal(server.requests[0]!.headers.authorization, `Bearer ${sentinel}`);
		assert.match(error.message, /401\b.*Incorrect API key provided: \[redacted\]/);
		assert.ok(!error.message.includes(sentinel));
	});

	it('sends reasoning_effort only for a reasoning model with thinking on, clamped to what it supports', async () => {
		const models = [{ id: 'thinker', reasoning: true, compat: { supportsReasoningEffort: true } }, { id: 'plain' }];
		const thinker = await summarizerFor({ models }, { summarizerThinking: 'xhigh' });
		await thinker.summarize({ prompt: 'p' });
		assert.equal(server.requests[0]!.body.reasoning_effort, 'high');
		const off = await summarizerFor({ models }, { summarizerThinking: 'off' });
		await off.summarize({ prompt: 'p' });
		assert.equal(server.requests[1]!.body.reasoning_effort, undefined);
		const suffix = await summarizerFor({ models }, { summarizerModel: 'fake-llm/thinker:low' });
		await suffix.summarize({ prompt: 'p' });
		assert.equal(server.requests[2]!.body.reasoning_effort, 'low');
		const plain = await summarizerFor({ models }, { summarizerModel: 'fake-llm/plain', summarizerThinking: 'high' });
		await plain.summarize({ prompt: 'p' });
		assert.equal(server.requests[3]!.body.reasoning_effort, undefined);
	});

	it('ignores streamed reasoning when collecting the summary', async () => {
		server.enqueue({ reasoning: 'let me think about it', text: 'the summary', chunkChars: 4 });
		const summarizer = await summarizerFor();
		const progress: number[] = [];
		const result = await summarizer.summarize({ prompt: 'p', onTextProgress: (chars) => progress.push(chars) });
		assert.equal(result.text, 'the summary');
		assert.equal(progress.at(-1), 'the summary'.length);
	});

	it('sends models.json headers (resolved like keys, Pi 1.x: $NAME is a variable) and the Authorization header when authHeader is set', async () => {
		process.env.PI_CONDENSE_TEST_HEADER_VALUE = 'from-the-environment';
		try {
			const summarizer = await summarizerFor({
				providerFields: { headers: { 'x-team': '$PI_CONDENSE_TEST_HEADER_VALUE', 'x-bare-name': 'PI_CONDENSE_TEST_HEADER_VALUE', 'x-literal': 'plain' }, authHeader: true },
				models: [{ id: 'fake-model', headers: { 'x-model': '!printf model-header' } }],
			});
			await summarizer.summarize({ prompt: 'p' });
		} finally {
			delete process.env.PI_CONDENSE_TEST_HEADER_VALUE;
		}
		const headers = server.requests[0]!.headers;
		assert.equal(headers['x-team'], 'from-the-environment');
		assert.equal(headers['x-bare-name'], 'PI_CONDENSE_TEST_HEADER_VALUE', 'a bare name is a literal since Pi 0.77');
		assert.equal(headers['x-literal'], 'plain');
		assert.equal(headers['x-model'], 'model-header');
		assert.equal(headers.authorization, 'Bearer sk-test-provider-key');
	});

	it('uses the session model for "default"', async () => {
		server.enqueue({ latencyMs: 40, text: 'late but fine' });
		const summarizer = await summarizerFor({}, { summarizerModel: 'default' }, { sessionModel: { provider: 'fake-llm', modelId: 'fake-model' } });
		assert.equal(summarizer.label, 'fake-llm/fake-model');
		const result = await summarizer.summarize({ prompt: 'p' });
		assert.equal(result.model, 'fake-llm/fake-model');
		assert.equal(result.text, 'late but fine');
	});

	it('fails clearly when "default" has no session model, or the model is unknown', async () => {
		const noSession = await summarizerFor({}, { summarizerModel: 'default' });
		const error = await rejectsWithKind(noSession.summarize({ prompt: 'p' }), 'model');
		assert.match(error.message, /has not chosen a model/);
		const unknown = await summarizerFor({}, { summarizerModel: 'fake-llm/no-such-model' });
		const unknownError: SummarizerError = await rejectsWithKind(unknown.summarize({ prompt: 'p' }), 'model') as SummarizerError;
		assert.match(unknownError.message, /Unknown model "fake-llm\/no-such-model"/);
		const noProvider = await summarizerFor({}, { summarizerModel: 'nowhere/model' });
		const providerError = await rejectsWithKind(noProvider.summarize({ prompt: 'p' }), 'model');
		assert.match(providerError.message, /Unknown provider "nowhere"/);
		assert.equal(server.requests.length, 0);
	});

	it('redacts the key and credential headers from an exception thrown out of the stream, and from its stack', async () => {
		const key = 'sk-SENTINEL-thrown-4b8e1d';
		const header = 'hdr-SENTINEL-thrown-77c0a9';
		server.enqueue({ text: 'a summary that is interrupted' });
		// A provider SDK that throws (instead of reporting an error event) with the request in its message.
		const summarizer = await summarizerFor({ providerApiKey: key, providerFields: { headers: { 'X-Api-Token': header } } }, {}, { loadPiAi: throwingPiAi });
		const error = await summarizer.summarize({ prompt: 'p' }).then(() => assert.fail('the call resolved'), (thrown: unknown) => thrown as Error);
		assert.equal(server.requests[0]?.headers.authorization, `Bearer ${key}`, 'the key did reach the server');
		for (const text of [error.message, String(error.stack), JSON.stringify(error), String((error as { cause?: unknown }).cause)]) {
			assert.ok(!text.includes(key) && !text.includes(header), `a secret in ${text}`);
		}
		assert.equal(error.name, 'SummarizerError');
		assert.match(error.message, /fake-llm\/fake-model failed: socket reset while sending Authorization: Bearer \[redacted\]/);
	});

	it('refuses Amazon Bedrock models, which the bundled pi-ai cannot load', async () => {
		const bedrock = await summarizerFor({}, { summarizerModel: 'amazon-bedrock/' + await firstBedrockModelId() });
		const error = await rejectsWithKind(bedrock.summarize({ prompt: 'p' }), 'model');
		assert.match(error.message, /uses the api "bedrock-converse-stream", which the pi-ai bundled with Pi Condense cannot call/);
		assert.equal(server.requests.length, 0);
	});
});

/** The real (bundled) pi-ai, with a stream that throws after its first event, quoting the request's credentials. */
const throwingPiAi: PiAiLoader = async () => {
	const real = await loadPiAi();
	return {
		...real,
		openCatalog: async (agentDir, purpose) => {
			const catalog = await real.openCatalog(agentDir, purpose);
			return {
				...catalog,
				stream: (model, context, options) => {
					const stream = catalog.stream(model, context, options);
					const headers = Object.entries(options.headers ?? {}).map(([name, value]) => `${name}: ${value}`).join(', ');
					const failing = async function* (): AsyncGenerator<AssistantMessageEvent> {
						for await (const event of stream) {
							yield event;
							throw new Error(`socket reset while sending Authorization: Bearer ${options.apiKey}, ${headers}`);
						}
					};
					return Object.assign(Object.create(stream) as typeof stream, { [Symbol.asyncIterator]: failing });
				},
			};
		},
	};
};

function promptOfLabels(prompt: string): string {
	return [...prompt.matchAll(/\[\[(\d+):(\w+)\]\]/g)].map((match) => `${match[1]}=${match[2]}`).join(',');
}

async function firstBedrockModelId(): Promise<string> {
	const catalog = await (await loadPiAi()).openCatalog('/nonexistent-agent-dir', 'probe');
	const model = catalog.models.find((candidate) => candidate.provider === 'amazon-bedrock');
	assert.ok(model, 'pi-ai lists Bedrock models');
	return model.id;
}

/**
 * The pi-ai summarizer through the real pi-ai client (the built `dist/pi-ai.js`, the bundled pi-ai) against a
 * real HTTP server speaking OpenAI chat completions on 127.0.0.1: what it sends and what it returns.
 * Its failures are piAiSummarizerFailures.test.ts.
 */
import assert from 'node:assert/strict';
import type { SummarizerError } from '../../../../src/engine/ports';
import { promptOf } from '../../../support/fakeLlmServer';
import { loadPiAi, rejectsWithKind } from '../../../support/piAiForTests';
import { useSummarizerServer } from './summarizerServer';

describe('piAiSummarizer (real pi-ai, fake OpenAI server)', () => {
	const { server, summarizerFor } = useSummarizerServer();

	it('sends one user message with the prompt as one text block (as pi-condense asks), no system prompt and no output cap, and returns the streamed text', async () => {
		server().enqueue({ text: '  - [[1:read]] read the file\n' });
		// A model that declares an output limit: pi-ai's streamSimple would send it as max_completion_tokens; the release sends none.
		const summarizer = await summarizerFor({ models: [{ id: 'fake-model', maxTokens: 4096 }] });
		assert.equal(summarizer.label, 'fake-llm/fake-model');
		const result = await summarizer.summarize({ prompt: 'Summarize this.\n\n<tool-call-batch>x</tool-call-batch>' });
		assert.equal(result.text, '- [[1:read]] read the file');
		assert.equal(result.model, 'fake-llm/fake-model');
		assert.equal(server().requests.length, 1);
		const request = server().requests[0]!;
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
		server().enqueue({
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

	it('sends reasoning_effort only for a reasoning model with thinking on, clamped to what it supports', async () => {
		const models = [{ id: 'thinker', reasoning: true, compat: { supportsReasoningEffort: true } }, { id: 'plain' }];
		const thinker = await summarizerFor({ models }, { summarizerThinking: 'xhigh' });
		await thinker.summarize({ prompt: 'p' });
		assert.equal(server().requests[0]!.body.reasoning_effort, 'high');
		const off = await summarizerFor({ models }, { summarizerThinking: 'off' });
		await off.summarize({ prompt: 'p' });
		assert.equal(server().requests[1]!.body.reasoning_effort, undefined);
		const suffix = await summarizerFor({ models }, { summarizerModel: 'fake-llm/thinker:low' });
		await suffix.summarize({ prompt: 'p' });
		assert.equal(server().requests[2]!.body.reasoning_effort, 'low');
		const plain = await summarizerFor({ models }, { summarizerModel: 'fake-llm/plain', summarizerThinking: 'high' });
		await plain.summarize({ prompt: 'p' });
		assert.equal(server().requests[3]!.body.reasoning_effort, undefined);
	});

	it('ignores streamed reasoning when collecting the summary', async () => {
		server().enqueue({ reasoning: 'let me think about it', text: 'the summary', chunkChars: 4 });
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
		const headers = server().requests[0]!.headers;
		assert.equal(headers['x-team'], 'from-the-environment');
		assert.equal(headers['x-bare-name'], 'PI_CONDENSE_TEST_HEADER_VALUE', 'a bare name is a literal since Pi 0.77');
		assert.equal(headers['x-literal'], 'plain');
		assert.equal(headers['x-model'], 'model-header');
		assert.equal(headers.authorization, 'Bearer sk-test-provider-key');
	});

	it('uses the session model for "default"', async () => {
		server().enqueue({ latencyMs: 40, text: 'late but fine' });
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
		assert.equal(server().requests.length, 0);
	});

	it('refuses Amazon Bedrock models, which the bundled pi-ai cannot load', async () => {
		const bedrock = await summarizerFor({}, { summarizerModel: 'amazon-bedrock/' + await firstBedrockModelId() });
		const error = await rejectsWithKind(bedrock.summarize({ prompt: 'p' }), 'model');
		assert.match(error.message, /uses the api "bedrock-converse-stream", which the pi-ai bundled with Pi Condense cannot call/);
		assert.equal(server().requests.length, 0);
	});
});

function promptOfLabels(prompt: string): string {
	return [...prompt.matchAll(/\[\[(\d+):(\w+)\]\]/g)].map((match) => `${match[1]}=${match[2]}`).join(',');
}

async function firstBedrockModelId(): Promise<string> {
	const catalog = await (await loadPiAi()).openCatalog('/nonexistent-agent-dir', 'probe');
	const model = catalog.models.find((candidate) => candidate.provider === 'amazon-bedrock');
	assert.ok(model, 'pi-ai lists Bedrock models');
	return model.id;
}

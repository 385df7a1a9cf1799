/**
 * How the pi-ai summarizer fails, through the real pi-ai client against a real HTTP server on
 * 127.0.0.1: HTTP errors and retries, timeouts, aborts, unusable replies, a dropped connection, and
 * never a key in what it says.
 */
import assert from 'node:assert/strict';
import type { AssistantMessageEvent } from '@earendil-works/pi-ai';
import type { PiAiLoader } from '../../../../src/node/llm/library/modelLibrary';
import { loadPiAi, rejectsWithKind } from '../../../support/piAiForTests';
import { useSummarizerServer } from './summarizerServer';

describe('piAiSummarizer failures (real pi-ai, fake OpenAI server)', () => {
	const { server, summarizerFor } = useSummarizerServer();

	it('turns HTTP 500 into an error naming the model and the status, without the key', async () => {
		server().enqueue({ status: 500, errorMessage: 'upstream exploded' });
		const summarizer = await summarizerFor();
		const error = await rejectsWithKind(summarizer.summarize({ prompt: 'p' }), 'error');
		assert.match(error.message, /fake-llm\/fake-model/);
		assert.match(error.message, /500/);
		assert.match(error.message, /upstream exploded/);
		assert.doesNotMatch(error.message, /sk-test-provider-key/);
		assert.equal(server().requests.length, 1);
	});

	it('lets the SDK retry a 500 when retries are allowed', async () => {
		server().enqueue({ status: 500, headers: { 'retry-after-ms': '1' } }, { text: 'second time lucky' });
		const summarizer = await summarizerFor({}, {}, { maxRetries: 1 });
		const result = await summarizer.summarize({ prompt: 'p' });
		assert.equal(result.text, 'second time lucky');
		assert.equal(server().requests.length, 2);
	});

	it('aborts a stream that goes quiet (idle timeout)', async () => {
		server().enqueue({ text: 'partial summary that never ends', stallAfterChars: 7 });
		// Long enough for the first characters to arrive on a loaded machine; the stall is for good, so it expires.
		const summarizer = await summarizerFor({}, { summarizerIdleTimeoutMs: 2000, summarizerMaxTimeoutMs: 60_000 });
		const progress: number[] = [];
		const error = await rejectsWithKind(summarizer.summarize({ prompt: 'p', onTextProgress: (chars) => progress.push(chars) }), 'timeout');
		assert.match(error.message, /^pi-condense: summarizer .+ stalled \(no output for 2s\); summarizer call abandoned$/);
		assert.deepEqual(progress, [7]);
	});

	it('aborts a server that never answers (idle timeout before the first byte)', async () => {
		server().enqueue({ hang: true });
		const summarizer = await summarizerFor({}, { summarizerIdleTimeoutMs: 150, summarizerMaxTimeoutMs: 5000 });
		const error = await rejectsWithKind(summarizer.summarize({ prompt: 'p' }), 'timeout');
		assert.match(error.message, / stalled \(no output for 0s\); summarizer call abandoned$/);
	});

	it('aborts a stream that keeps trickling past the total timeout', async () => {
		server().enqueue({ text: 'y'.repeat(2000), chunkChars: 1, chunkDelayMs: 10 });
		// The whole stream takes 20 s; the ceiling leaves time for its first characters on a loaded machine.
		const summarizer = await summarizerFor({}, { summarizerIdleTimeoutMs: 10_000, summarizerMaxTimeoutMs: 2000 });
		let lastProgress = 0;
		const error = await rejectsWithKind(summarizer.summarize({ prompt: 'p', onTextProgress: (chars) => { lastProgress = chars; } }), 'timeout');
		assert.match(error.message, /^pi-condense: summarizer .+ exceeded 2s ceiling; summarizer call abandoned$/);
		assert.ok(lastProgress > 0 && lastProgress < 2000, `progress ${lastProgress}`);
	});

	it('stops mid-stream when the caller aborts', async () => {
		server().enqueue({ text: 'z'.repeat(500), chunkChars: 5, chunkDelayMs: 10 });
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
		assert.equal(server().requests.length, 0);
	});

	it('rejects an empty or whitespace-only reply as unusable', async () => {
		server().enqueue({ text: '' }, { text: ' \n\t ' });
		const summarizer = await summarizerFor();
		await rejectsWithKind(summarizer.summarize({ prompt: 'p' }), 'empty');
		await rejectsWithKind(summarizer.summarize({ prompt: 'p' }), 'empty');
	});

	it('rejects a reply cut off by the output limit (finish_reason "length")', async () => {
		server().enqueue({ text: 'a summary that was cut', finishReason: 'length' });
		const summarizer = await summarizerFor();
		const error = await rejectsWithKind(summarizer.summarize({ prompt: 'p' }), 'length');
		assert.match(error.message, /output limit/);
	});

	it('reports a connection dropped mid-stream as an error', async () => {
		server().enqueue({ text: 'this will be cut short', dropAfterChars: 4 });
		const summarizer = await summarizerFor();
		const error = await rejectsWithKind(summarizer.summarize({ prompt: 'p' }), 'error');
		assert.match(error.message, /fake-llm\/fake-model failed \(after 4 characters of summary\)/);
	});

	it('never repeats the key, even when the provider echoes it back', async () => {
		const sentinel = 'sk-SENTINEL-echoed-0123456789';
		server().enqueue({ status: 401, errorMessage: `Incorrect API key provided: ${sentinel}` });
		const summarizer = await summarizerFor({ auth: { 'fake-llm': { type: 'api_key', key: sentinel } } });
		const error = await rejectsWithKind(summarizer.summarize({ prompt: 'p' }), 'error');
		assert.equal(server().requests[0]!.headers.authorization, `Bearer ${sentinel}`);
		assert.match(error.message, /401\b.*Incorrect API key provided: \[redacted\]/);
		assert.ok(!error.message.includes(sentinel));
	});

	it('redacts the key and credential headers from an exception thrown out of the stream, and from its stack', async () => {
		const key = 'sk-SENTINEL-thrown-4b8e1d';
		const header = 'hdr-SENTINEL-thrown-77c0a9';
		server().enqueue({ text: 'a summary that is interrupted' });
		// A provider SDK that throws (instead of reporting an error event) with the request in its message.
		const summarizer = await summarizerFor({ providerApiKey: key, providerFields: { headers: { 'X-Api-Token': header } } }, {}, { loadPiAi: throwingPiAi });
		const error = await summarizer.summarize({ prompt: 'p' }).then(() => assert.fail('the call resolved'), (thrown: unknown) => thrown as Error);
		assert.equal(server().requests[0]?.headers.authorization, `Bearer ${key}`, 'the key did reach the server');
		for (const text of [error.message, String(error.stack), JSON.stringify(error), String((error as { cause?: unknown }).cause)]) {
			assert.ok(!text.includes(key) && !text.includes(header), `a secret in ${text}`);
		}
		assert.equal(error.name, 'SummarizerError');
		assert.match(error.message, /fake-llm\/fake-model failed: socket reset while sending Authorization: Bearer \[redacted\]/);
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

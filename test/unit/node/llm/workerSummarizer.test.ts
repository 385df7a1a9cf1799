/**
 * A flush's summarizer in the pi-ai worker against the fake OpenAI server on 127.0.0.1, beside the
 * same summarizer in this thread: the same result, progress and log lines; the same failure
 * (`SummarizerError` kind and message) for every way a call fails; cancelling mid-stream; the
 * fallback to the session's model, whose state lasts for the flush; the offline choice and why.
 */
import assert from 'node:assert/strict';
import type { Logger, SummarizeRequest } from '../../../../src/engine/ports';
import { inProcessSummarizers, type DefaultSummarizer, type SummarizerChoice } from '../../../../src/node/llm/defaultSummarizer';
import { PiAiWorker } from '../../../../src/node/llm/worker/piAiWorker';
import { createFakeAgentDir, type FakeAgentDir } from '../../../support/fakeAgentDir';
import { startFakeLlmServer, type FakeLlmServer, type FakeReply } from '../../../support/fakeLlmServer';
import { flushConfig } from '../../../support/flushFixtures';
import { BUNDLED_ONLY, distDir, loadPiAi } from '../../../support/piAiForTests';
import { WRITER_RELEASE } from '../../../support/releases';
import { useUnsetEnvVars } from '../../../support/unsetEnvVars';

const ANTHROPIC_VARS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_OAUTH_TOKEN'];
const PROMPT = 'Summarize batch 1.';

interface Run {
	readonly outcome: { readonly text?: string; readonly model?: string; readonly usage?: unknown; readonly failure?: { name: string; kind: unknown; message: string } };
	readonly progress: number[];
	readonly logs: string[];
}

describe('the summarizer in the pi-ai worker', function () {
	this.timeout(30_000);
	let worker: PiAiWorker;
	let server: FakeLlmServer;
	let agent: FakeAgentDir;
	useUnsetEnvVars(ANTHROPIC_VARS);

	before(() => {
		worker = new PiAiWorker({ distDir, installedPiAi: () => BUNDLED_ONLY });
	});
	after(async () => {
		await worker.dispose();
	});
	beforeEach(async () => {
		server = await startFakeLlmServer({ text: '- [[1:bash]] read the log', chunkChars: 4 });
		agent = await createFakeAgentDir({ serverUrl: server.url, models: [{ id: 'fake-model' }, { id: 'other-model' }] });
	});
	afterEach(async () => {
		await server.close();
		await agent.cleanup();
	});

	const choice = (logger: Logger, config: Record<string, unknown> = {}, sessionModel = { provider: 'fake-llm', modelId: 'fake-model' }): SummarizerChoice => ({
		agentDir: agent.dir,
		// No time limit unless the case is about one: a loaded machine's pause must not turn an answer into a timeout.
		config: flushConfig({ summarizerModel: agent.modelRef, summarizerIdleTimeoutMs: 0, summarizerMaxTimeoutMs: 0, ...config }),
		sessionModel,
		fallbackRule: WRITER_RELEASE.summarizerFallback,
		maxRetries: 0,
		logger,
	});

	/** One call, recording what it answered or how it failed, its progress and its log lines. */
	async function call(summarizer: DefaultSummarizer, logs: string[], request: Partial<SummarizeRequest> = {}): Promise<Run> {
		const progress: number[] = [];
		try {
			const result = await summarizer.summarize({ prompt: PROMPT, onTextProgress: (chars) => progress.push(chars), ...request });
			return { outcome: { text: result.text, model: result.model, usage: result.usage }, progress, logs };
		} catch (error) {
			const failure = error as Error & { kind?: unknown };
			return { outcome: { failure: { name: failure.name, kind: failure.kind, message: failure.message } }, progress, logs };
		}
	}

	/** The same call (same scripted replies) in this thread, then in the worker. */
	async function both(replies: FakeReply[], config: Record<string, unknown> = {}, request: (logs: string[]) => Partial<SummarizeRequest> = () => ({})): Promise<[Run, Run]> {
		const runs: Run[] = [];
		for (const factory of [inProcessSummarizers(loadPiAi), worker.summarizers]) {
			server.enqueue(...replies);
			const logs: string[] = [];
			const summarizer = factory(choice(recordingLogger(logs), config));
			runs.push(await call(summarizer, logs, request(logs)));
			summarizer.release();
		}
		return [runs[0]!, runs[1]!];
	}

	it('answers as in this thread: text, usage, model, progress and log lines', async () => {
		const [here, there] = await both([]);
		assert.equal(there.outcome.text, '- [[1:bash]] read the log');
		assert.deepEqual(there.outcome, here.outcome);
		assert.deepEqual(there.progress, [4, 8, 12, 16, 20, 24, 25]);
		assert.deepEqual(there.progress, here.progress);
		assert.deepEqual(there.logs, here.logs);
		assert.match(there.logs.join('\n'), /^debug summarizer: fake-llm\/fake-model \(key from .+\), prompt 18 chars$/m);
	});

	const failures: { name: string; replies: FakeReply[]; config?: Record<string, unknown>; kind: string }[] = [
		{ name: 'an HTTP 500', replies: [{ status: 500, errorMessage: 'upstream exploded' }], kind: 'error' },
		{ name: 'a stalled stream (idle timeout)', replies: [{ text: 'partial summary', stallAfterChars: 4 }], config: { summarizerIdleTimeoutMs: 2000 }, kind: 'timeout' },
		{ name: 'a stream past the ceiling (max timeout)', replies: [{ text: 'x'.repeat(200), chunkChars: 2, chunkDelayMs: 100 }], config: { summarizerIdleTimeoutMs: 1000, summarizerMaxTimeoutMs: 500 }, kind: 'timeout' },
		{ name: 'an empty reply', replies: [{ text: '' }], kind: 'empty' },
		{ name: 'a `length` stop', replies: [{ text: '- cut', finishReason: 'length' }], kind: 'length' },
		{ name: 'a model nobody knows', replies: [], config: { summarizerModel: 'fake-llm/no-such-model' }, kind: 'model' },
		{ name: 'missing credentials', replies: [], config: { summarizerModel: 'anthropic/claude-haiku-4-5' }, kind: 'credentials' },
	];
	for (const failure of failures) {
		it(`fails as in this thread after ${failure.name}: SummarizerError(${failure.kind}), the same message`, async () => {
			const [here, there] = await both(failure.replies, failure.config);
			assert.equal(there.outcome.failure?.name, 'SummarizerError', JSON.stringify(there.outcome));
			assert.equal(there.outcome.failure?.kind, failure.kind, there.outcome.failure?.message);
			assert.deepEqual(there.outcome, here.outcome);
			assert.deepEqual(there.logs, here.logs);
		});
	}

	it('cancels a call mid-stream, and one cancelled before it starts never reaches the server', async () => {
		const cancelOnFirstText = (): Partial<SummarizeRequest> => {
			const controller = new AbortController();
			return { signal: controller.signal, onTextProgress: () => controller.abort() };
		};
		const [here, there] = await both([{ text: 'x'.repeat(400), chunkChars: 5, chunkDelayMs: 20 }], {}, cancelOnFirstText);
		assert.deepEqual(there.outcome.failure, { name: 'SummarizerError', kind: 'aborted', message: 'The call to fake-llm/fake-model was cancelled.' });
		assert.deepEqual(there.outcome, here.outcome);
		const requests = server.requests.length;
		const logs: string[] = [];
		const early = worker.summarizers(choice(recordingLogger(logs)));
		const aborted = await call(early, logs, { signal: AbortSignal.abort() });
		early.release();
		assert.deepEqual(aborted.outcome.failure, { name: 'SummarizerError', kind: 'aborted', message: 'The call to fake-llm/fake-model was cancelled.' });
		assert.equal(server.requests.length, requests, 'no request sent');
	});

	it('falls back to the session\'s model while the configured one fails, says so in the host\'s log, and stays on it for the flush', async () => {
		const config = { summarizerModel: 'fake-llm/other-model' };
		const [here, there] = await both([{ status: 500, errorMessage: 'other model down' }, { text: '- from the session model' }], config);
		assert.equal(there.outcome.model, 'fake-llm/fake-model');
		assert.deepEqual(there.outcome, here.outcome);
		assert.deepEqual(there.logs, here.logs);
		assert.ok(there.logs.includes('warn pi-condense: summarizer model fake-llm/other-model failing, using session model fake-llm/fake-model until it recovers'), there.logs.join('\n'));

		const summarizer = worker.summarizers(choice(recordingLogger([]), config));
		server.enqueue({ status: 500, errorMessage: 'other model down' });
		await summarizer.summarize({ prompt: PROMPT });
		await summarizer.summarize({ prompt: PROMPT });
		summarizer.release();
		assert.deepEqual(server.requests.slice(-3).map((request) => request.body['model']), ['other-model', 'fake-model', 'fake-model'], 'the second call of the flush goes straight to the session model');
	});

	it('chooses the offline summarizer when the session\'s model has no credentials, and says why', async () => {
		const input = { kind: 'batch' as const, assistantText: '', calls: [{ label: '[[1:bash]]', toolName: 'bash', args: { command: 'ls' }, resultText: 'a\nb', isError: false }] };
		const runs: { run: Run; reason: string | undefined }[] = [];
		for (const factory of [inProcessSummarizers(loadPiAi), worker.summarizers]) {
			const logs: string[] = [];
			const summarizer = factory(choice(recordingLogger(logs), { summarizerModel: 'default' }, { provider: 'anthropic', modelId: 'claude-sonnet-4-5' }));
			assert.equal(summarizer.offlineReason(), undefined, 'not before a call');
			runs.push({ run: await call(summarizer, logs, { input }), reason: summarizer.offlineReason() });
			summarizer.release();
		}
		const [here, there] = runs;
		assert.equal(there?.run.outcome.model, 'offline (extractive)');
		assert.equal(there?.reason, 'no credentials for anthropic/claude-sonnet-4-5, the session\'s model (contextPrune.summarizerModel is "default")');
		assert.deepEqual(there, here);
		assert.equal(server.requests.length, 0);
	});
});

function recordingLogger(lines: string[]): Logger {
	const record = (level: string) => (message: string | Error): void => {
		lines.push(`${level} ${message instanceof Error ? message.message : message}`);
	};
	return { trace: record('trace'), debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error') };
}

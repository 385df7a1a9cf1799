/**
 * The environment of an end-to-end flush test, set up before and torn down after each test of the
 * `describe` that calls it: the fake OpenAI server, a Pi agent dir whose models.json points at it,
 * and a temporary folder for session files. `request` builds a `flushSession` request with the
 * writer's waits switched off and no Pi process check, whose summarizers run in a pi-ai worker as
 * the extension's do (one worker for the whole `describe`, disposed after it).
 */
import type { SummarizerFactory } from '../../src/node/llm/defaultSummarizer';
import type { FlushSessionRequest } from '../../src/node/flush/flushSession';
import { PiAiWorker } from '../../src/node/llm/worker/piAiWorker';
import { createFakeAgentDir, type FakeAgentDir, type FakeAgentDirOptions } from './fakeAgentDir';
import { startFakeLlmServer, type FakeLlmServer, type FakeReply } from './fakeLlmServer';
import { flushConfig } from './flushFixtures';
import { BUNDLED_ONLY, distDir } from './piAiForTests';
import { noPiRunning, TempDir } from './tempSession';
import { WRITER_RELEASE } from './releases';

export interface FlushEnvironment {
	readonly server: FakeLlmServer;
	readonly agent: FakeAgentDir;
	readonly dir: TempDir;
	/** The extension's way to build a flush's summarizer: in the describe's pi-ai worker. */
	readonly summarizers: SummarizerFactory;
	/** A `now` request on `path` with `summarizerModel` = the fake model; `extra` overrides. */
	request(path: string, extra?: Partial<FlushSessionRequest>): FlushSessionRequest;
}

export const testWriteOptions = { quietMs: 0, maxWaitMs: 0, checkPiHolders: noPiRunning };

export function useFlushEnvironment(defaultReply: FakeReply, agentOptions: Omit<FakeAgentDirOptions, 'serverUrl'> = {}): FlushEnvironment {
	let current: Omit<FlushEnvironment, 'request' | 'summarizers'> | undefined;
	let worker: PiAiWorker | undefined;
	before(() => {
		worker = new PiAiWorker({ distDir, installedPiAi: () => BUNDLED_ONLY });
	});
	after(async () => {
		await worker?.dispose();
	});
	const summarizers: SummarizerFactory = (choice) => {
		if (!worker) {
			throw new Error('the flush environment is only set up inside a describe');
		}
		return worker.summarizers(choice);
	};
	const get = (): Omit<FlushEnvironment, 'request' | 'summarizers'> => {
		if (!current) {
			throw new Error('the flush environment is only set up inside a test');
		}
		return current;
	};
	beforeEach(async () => {
		const server = await startFakeLlmServer(defaultReply);
		current = { server, agent: await createFakeAgentDir({ serverUrl: server.url, ...agentOptions }), dir: new TempDir() };
	});
	afterEach(async () => {
		const env = get();
		current = undefined;
		await env.server.close();
		await env.agent.cleanup();
		env.dir.remove();
	});
	return {
		get server() {
			return get().server;
		},
		get agent() {
			return get().agent;
		},
		get dir() {
			return get().dir;
		},
		summarizers,
		request: (path, extra = {}) => ({
			sessionPath: path,
			agentDir: get().agent.dir,
			mode: 'now',
			config: flushConfig({ summarizerModel: get().agent.modelRef }),
			rules: WRITER_RELEASE,
			summarizers,
			writeOptions: testWriteOptions,
			...extra,
		}),
	};
}

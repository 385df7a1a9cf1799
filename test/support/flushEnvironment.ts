/**
 * The environment of an end-to-end flush test, set up before and torn down after each test of the
 * `describe` that calls it: the fake OpenAI server, a Pi agent dir whose models.json points at it,
 * and a temporary folder for session files. `request` builds a `flushSession` request with the
 * writer's waits switched off and no Pi process check.
 */
import { createPiAiLoader } from '../../src/node/llm/piAiLoader';
import type { FlushSessionRequest } from '../../src/node/flush/flushSession';
import { createFakeAgentDir, type FakeAgentDir, type FakeAgentDirOptions } from './fakeAgentDir';
import { startFakeLlmServer, type FakeLlmServer, type FakeReply } from './fakeLlmServer';
import { flushConfig } from './flushFixtures';
import { distDir } from './piAiForTests';
import { noPiRunning, TempDir } from './tempSession';
import { WRITER_RELEASE } from './releases';

export interface FlushEnvironment {
	readonly server: FakeLlmServer;
	readonly agent: FakeAgentDir;
	readonly dir: TempDir;
	/** A `now` request on `path` with `summarizerModel` = the fake model; `extra` overrides. */
	request(path: string, extra?: Partial<FlushSessionRequest>): FlushSessionRequest;
}

export const testWriteOptions = { quietMs: 0, maxWaitMs: 0, checkPiHolders: noPiRunning };

export function useFlushEnvironment(defaultReply: FakeReply, agentOptions: Omit<FakeAgentDirOptions, 'serverUrl'> = {}): FlushEnvironment {
	let current: Omit<FlushEnvironment, 'request'> | undefined;
	const get = (): Omit<FlushEnvironment, 'request'> => {
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
		request: (path, extra = {}) => ({
			sessionPath: path,
			agentDir: get().agent.dir,
			mode: 'now',
			config: flushConfig({ summarizerModel: get().agent.modelRef }),
			release: WRITER_RELEASE,
			loadPiAi: createPiAiLoader(distDir),
			writeOptions: testWriteOptions,
			...extra,
		}),
	};
}

/**
 * What the pi-ai summarizer's tests share: a fake OpenAI server on 127.0.0.1 started before each
 * test, and summarizers through the real (bundled) pi-ai on a fake agent dir pointing at it.
 */
import { createPiAiSummarizer, type PiAiSummarizerOptions, type SummarizerSettings } from '../../../../src/node/llm/piAiSummarizer';
import type { Summarizer } from '../../../../src/engine/ports';
import { createFakeAgentDir, type FakeAgentDir, type FakeAgentDirOptions } from '../../../support/fakeAgentDir';
import { startFakeLlmServer, type FakeLlmServer } from '../../../support/fakeLlmServer';
import { loadPiAi, testSettings } from '../../../support/piAiForTests';

export interface SummarizerServer {
	/** This test's server. */
	readonly server: () => FakeLlmServer;
	readonly summarizerFor: (agent?: Omit<FakeAgentDirOptions, 'serverUrl'>, settings?: Partial<SummarizerSettings>, extra?: Partial<PiAiSummarizerOptions>) => Promise<Summarizer>;
}

/** Call inside a `describe`. */
export function useSummarizerServer(): SummarizerServer {
	let server: FakeLlmServer | undefined;
	const dirs: FakeAgentDir[] = [];
	const current = (): FakeLlmServer => {
		if (!server) {
			throw new Error('no server outside a test');
		}
		return server;
	};
	beforeEach(async () => {
		server = await startFakeLlmServer();
	});
	afterEach(async () => {
		await server?.close();
		server = undefined;
		await Promise.all(dirs.splice(0).map((dir) => dir.cleanup()));
	});
	return {
		server: current,
		summarizerFor: async (agent = {}, settings = {}, extra = {}) => {
			const dir = await createFakeAgentDir({ serverUrl: current().url, providerApiKey: 'sk-test-provider-key', ...agent });
			dirs.push(dir);
			return createPiAiSummarizer({ loadPiAi, agentDir: dir.dir, settings: testSettings(dir.modelRef, settings), maxRetries: 0, ...extra });
		},
	};
}

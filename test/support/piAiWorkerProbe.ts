/**
 * Run as its own Node process by the pi-ai worker test: a model lookup, a model listing and a
 * streamed summarizer call against a fake LLM server, all through `PiAiWorker`, then prints (as
 * JSON) what they answered and whether pi-ai was ever loaded in this process's own thread.
 * Usage: node out/test/support/piAiWorkerProbe.js <distDir>
 */
import { join } from 'node:path';
import { PiAiWorker } from '../../src/node/llm/worker/piAiWorker';
import { createFakeAgentDir } from './fakeAgentDir';
import { startFakeLlmServer } from './fakeLlmServer';
import { flushConfig } from './flushFixtures';
import { WRITER_RELEASE } from './releases';

const distDir = process.argv[2] ?? 'dist';
const chunk = join(distDir, 'pi-ai.js');
const piAiLoaded = (): boolean => Object.keys(require.cache).some((path) => path === chunk || path.includes('@mariozechner/pi-ai'));

async function main(): Promise<void> {
	const server = await startFakeLlmServer({ text: '- [[1:bash]] listed the files', chunkChars: 6 });
	const agent = await createFakeAgentDir({ serverUrl: server.url });
	const worker = new PiAiWorker({ distDir });
	try {
		const facts = await worker.lookUp(agent.dir, agent.provider, 'fake-model');
		const models = await worker.listModels(agent.dir);
		const summarizer = worker.summarizers({
			agentDir: agent.dir, config: flushConfig({ summarizerModel: agent.modelRef }), sessionModel: undefined, fallbackRule: WRITER_RELEASE.summarizerFallback,
		});
		const progress: number[] = [];
		const result = await summarizer.summarize({ prompt: 'Summarize.', onTextProgress: (chars) => progress.push(chars) });
		summarizer.release();
		process.stdout.write(JSON.stringify({
			contextWindow: facts?.contextWindow, models: models.map((model) => model.ref), text: result.text, progress, requests: server.requests.length, piAiLoaded: piAiLoaded(),
		}));
	} finally {
		await worker.dispose();
		await server.close();
		await agent.cleanup();
	}
}

void main();

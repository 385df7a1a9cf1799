/**
 * Flush benchmark: bundle sizes, and the wall time of a 20-batch flush through the real pi-ai
 * client against the fake OpenAI server answering each call after 200 ms, as a ratio to the ideal
 * parallel time (one call's latency). The interactive (one call at a time) flush is shown too.
 */
import { bundledLoader } from '../support/piAiForTests';
import { inProcessSummarizers } from '../../src/node/llm/defaultSummarizer';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { flushSession } from '../../src/node/flush/flushSession';
import { formatBundleSizes, readBundleSizes } from './bundleSizes';
import { createFakeAgentDir } from '../support/fakeAgentDir';
import { startFakeLlmServer } from '../support/fakeLlmServer';
import { flushConfig, toolSession } from '../support/flushFixtures';
import { repoRoot } from '../support/paths';
import { noPiRunning, TempDir } from '../support/tempSession';
import { ratio } from './timing';
import { WRITER_RELEASE } from '../support/releases';
import { testWork } from '../support/testWork';

const BATCHES = 20;
const LATENCY_MS = Number(process.env['PI_CONDENSE_BENCH_LATENCY'] ?? '200');

export async function benchFlush(): Promise<void> {
	const distDir = join(repoRoot, 'dist');
	console.log('\n## Bundles and flush');
	console.log(`bundle sizes                          ${formatBundleSizes(await readBundleSizes(distDir))}`);
	const server = await startFakeLlmServer({
		latencyMs: LATENCY_MS,
		text: (request) => JSON.stringify(request.body).match(/\[\[\d+:[a-z]+\]\]/g)?.map((label) => `- ${label} done`).join('\n') ?? 'done',
	});
	const agent = await createFakeAgentDir({ serverUrl: server.url });
	const dir = new TempDir();
	try {
		const run = async (interactive: boolean): Promise<number> => {
			const path = dir.file(`s-${String(interactive)}.jsonl`, toolSession(BATCHES).text());
			const start = performance.now();
			const outcome = await flushSession(testWork, {
				sessionPath: path, agentDir: agent.dir, mode: 'now', summarizers: inProcessSummarizers(bundledLoader(distDir)), interactive,
				config: flushConfig({ summarizerModel: agent.modelRef, chainCompression: { enabled: false } }), rules: WRITER_RELEASE,
				writeOptions: { quietMs: 0, maxWaitMs: 0, checkPiHolders: noPiRunning },
			});
			const elapsed = performance.now() - start;
			if (outcome.kind !== 'written') {
				throw new Error(`bench flush: ${outcome.message}`);
			}
			return elapsed;
		};
		await run(false); // warm-up: loads the pi-ai chunk and opens connections
		const parallel = await run(false);
		const sequential = await run(true);
		console.log(`flush of ${BATCHES} batches, ${LATENCY_MS} ms per call  ${parallel.toFixed(0)} ms   ${ratio(parallel / LATENCY_MS)} the ideal parallel time (${LATENCY_MS} ms)   (target: close to 1×)`);
		console.log(`the same, one call at a time          ${sequential.toFixed(0)} ms   ${ratio(sequential / LATENCY_MS)} the ideal parallel time (interactive /pruner now)`);
	} finally {
		dir.remove();
		await agent.cleanup();
		await server.close();
	}
}

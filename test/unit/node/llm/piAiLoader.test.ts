/**
 * The pi-ai chunk is loaded on first use only, and works as a CommonJS bundle: the providers we
 * may call load inside it (the Mistral SDK's optional @opentelemetry/api is never required on
 * that path), while Bedrock cannot (pi-ai imports it with a computed specifier).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startFakeLlmServer } from '../../../support/fakeLlmServer';
import { distDir, loadPiAi } from '../../../support/piAiForTests';

describe('piAiLoader', () => {
	it('does not load pi-ai when the summarizer modules are imported or a summarizer is created', () => {
		const probe = join(process.cwd(), 'out', 'test', 'support', 'lazyLoadProbe.js');
		const report = JSON.parse(execFileSync(process.execPath, [probe, distDir], { encoding: 'utf8' })) as Record<string, unknown>;
		assert.equal(report.afterImport, false);
		assert.equal(report.afterCreate, false);
		assert.equal(report.label, 'anthropic/claude-sonnet-4-5');
		assert.equal(report.afterFirstUse, true);
		assert.deepEqual(report.exports, [
			'calculateCost', 'clampThinkingLevel', 'getEnvApiKey', 'getModels', 'getOAuthProvider', 'getProviders', 'getSupportedThinkingLevels', 'stream',
		]);
	});

	it('explains a missing chunk', async () => {
		const { createPiAiLoader } = await import('../../../../src/node/llm/piAiLoader');
		assert.throws(() => createPiAiLoader(join(distDir, 'nowhere'))(), /Could not load the pi-ai chunk at .*nowhere.*pi-ai\.js/);
	});

	it('runs every bundled provider module we might call without @opentelemetry/api (Mistral included)', async () => {
		const server = await startFakeLlmServer();
		try {
			const piAi = loadPiAi();
			const seen = new Map<string, string>();
			for (const provider of piAi.getProviders()) {
				// The newest model of each provider (older Anthropic ones print a deprecation notice).
				const model = piAi.getModels(provider).at(-1);
				if (!model || seen.has(model.api) || model.api === 'bedrock-converse-stream') {
					continue;
				}
				const message = await piAi.stream({ ...model, baseUrl: `${server.url}/v1` }, {
					messages: [{ role: 'user', content: 'ping', timestamp: Date.now() }],
				}, { apiKey: 'test-key', maxRetries: 0 }).result();
				seen.set(model.api, `${message.stopReason}: ${message.errorMessage ?? ''}`);
			}
			assert.ok(seen.has('mistral-conversations') && seen.has('openai-completions') && seen.has('anthropic-messages'), [...seen.keys()].join());
			for (const [api, outcome] of seen) {
				assert.doesNotMatch(outcome, /Cannot find module|opentelemetry/, `${api} → ${outcome}`);
			}
			// Both speak a protocol the fake server answers, so these calls really streamed inside the bundle.
			assert.equal(seen.get('openai-completions'), 'stop: ');
			assert.equal(seen.get('mistral-conversations'), 'stop: ');
		} finally {
			await server.close();
		}
	});

	it('cannot run Bedrock inside the bundle (why the summarizer refuses it up front)', async () => {
		const piAi = loadPiAi();
		const model = piAi.getModels('amazon-bedrock')[0]!;
		const message = await piAi.stream(model, { messages: [{ role: 'user', content: 'ping', timestamp: Date.now() }] }, { apiKey: 'x' }).result();
		assert.equal(message.stopReason, 'error');
		assert.match(message.errorMessage ?? '', /amazon-bedrock\.js/);
	});
});

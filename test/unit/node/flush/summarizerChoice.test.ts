/**
 * Which summarizer a flush uses without one being passed in: with `summarizerModel: "default"`
 * the session's model through pi-ai when it has credentials, else the offline extractive
 * summarizer, said so in the notices; an explicitly configured model without credentials is a
 * clear error naming the provider and what to set, never a silent fallback.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { OFFLINE_HEADER } from '../../../../src/engine/flush';
import { flushSession, type FlushSessionRequest } from '../../../../src/node/flush/flushSession';
import { useFlushEnvironment } from '../../../support/flushEnvironment';
import { flushConfig, toolSession } from '../../../support/flushFixtures';
import { useUnsetEnvVars } from '../../../support/unsetEnvVars';
import { testWork } from '../../../support/testWork';

const ANTHROPIC_VARS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_OAUTH_TOKEN'];

describe('flush: the default summarizer and the offline fallback', function () {
	this.timeout(30000);
	const env = useFlushEnvironment({ text: '- [[1:bash]] log\n- [[2:read]] source' });
	useUnsetEnvVars(ANTHROPIC_VARS);

	const request = (path: string, summarizerModel: string): FlushSessionRequest => env.request(path, { config: flushConfig({ summarizerModel }) });
	const summaries = (path: string): string[] => readFileSync(path, 'utf8').trimEnd().split('\n')
		.map((line) => JSON.parse(line) as { customType?: string; content?: string })
		.filter((entry) => entry.customType === 'context-prune-summary').map((entry) => entry.content ?? '');

	it('writes offline summaries when the session\'s model has no credentials, and says so', async () => {
		const path = env.dir.file('s.jsonl', toolSession(1).text());
		const result = await flushSession(testWork, request(path, 'default'));
		assert.equal(result.kind, 'written', result.message);
		assert.equal(result.summarizer, 'offline (extractive)');
		assert.equal([...result.notices][0], 'pruner: no credentials for anthropic/claude-sonnet-4-5, the session\'s model (contextPrune.summarizerModel is "default"); summaries are written offline (extractive, no LLM call)');
		const [summary] = summaries(path);
		assert.ok(summary?.startsWith(`${OFFLINE_HEADER}\n- \`t1\` bash command="cat logs/1.log": OK, `), summary);
		assert.match(summary ?? '', /\n- `t2` read path="src\/file1.ts": OK, /);
		assert.equal(env.server.requests.length, 0);
	});

	it('uses the session\'s model through pi-ai when it has credentials', async () => {
		const builder = toolSession(1);
		builder.entry({ type: 'model_change', provider: env.agent.provider, modelId: 'fake-model' });
		const path = env.dir.file('s.jsonl', builder.text());
		const result = await flushSession(testWork, request(path, 'default'));
		assert.equal(result.kind, 'written', result.message);
		assert.equal(result.summarizer, env.agent.modelRef);
		assert.equal(env.server.requests.length, 1);
		assert.deepEqual(summaries(path).map((s) => s.split('\n')[0]), ['- `t1` log']);
	});

	it('fails clearly, writing nothing, when an explicit model has no credentials', async () => {
		const path = env.dir.file('s.jsonl', toolSession(1).text());
		const before = readFileSync(path, 'utf8');
		const result = await flushSession(testWork, request(path, 'anthropic/claude-haiku-4-5'));
		assert.equal(result.kind, 'failed');
		assert.match(result.message, /^pruner: nothing flushed — failed \(No API key for provider "anthropic": set ANTHROPIC_OAUTH_TOKEN or ANTHROPIC_API_KEY/);
		assert.ok(result.advice);
		assert.equal(readFileSync(path, 'utf8'), before);
		assert.equal(env.server.requests.length, 0);
	});
});

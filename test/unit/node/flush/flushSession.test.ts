/**
 * `flushSession` end to end: the real pi-ai client (`dist/pi-ai.js`) against the fake OpenAI
 * server on 127.0.0.1, real session files, the real safe writer. Success writes pi-condense's
 * entries; every failure (HTTP 500, timeout, abort mid-stream, empty reply, `length` stop) leaves
 * the file byte-identical and a retry then succeeds; an oversized summary is skipped with the
 * frontier advanced and its refs burned. Flushes run their summarizer in a pi-ai worker, as the
 * extension's do; the failures also in this thread, as the CLI's do.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCondenseStateSteps, renderContextSteps } from '../../../../src/engine/condense';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../../src/engine/session';
import { SummarizerError, type Summarizer } from '../../../../src/engine/ports';
import { flushSession, type FlushSessionRequest } from '../../../../src/node/flush/flushSession';
import { createPiAiSummarizer } from '../../../../src/node/llm/piAiSummarizer';
import type { FakeLlmServer } from '../../../support/fakeLlmServer';
import { testWriteOptions, useFlushEnvironment } from '../../../support/flushEnvironment';
import { flushConfig, toolSession } from '../../../support/flushFixtures';
import { realSessionsDir } from '../../../support/paths';
import { loadPi } from '../../../support/pi';
import { loadPiAi } from '../../../support/piAiForTests';
import { WRITER_RELEASE } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';
import { testWork } from '../../../support/testWork';
import { readSessionModel } from '../../../../src/node/store/readSessionModel';
import { SessionInsight } from '../../../../src/engine/views/sessionInsight';

type Json = Record<string, unknown>;

describe('flushSession (real pi-ai, fake OpenAI server, real files)', function () {
	this.timeout(30000);
	const env = useFlushEnvironment({ text: '- [[1:bash]] read the log\n- [[2:read]] read the source' });
	const writeOptions = testWriteOptions;
	const request = (path: string, extra: Partial<FlushSessionRequest> = {}): FlushSessionRequest => env.request(path, extra);
	/**
	 * pi-ai with no SDK retries, so one scripted failure is one failed call. An idle timeout only where the test is
	 * about one (a stream that goes quiet for good): elsewhere a loaded machine's pause must not become a failure.
	 * That one counts from the call's start, so it leaves a loaded machine time to get the request to the server.
	 */
	const noRetries = (idleTimeoutMs: number): Summarizer => createPiAiSummarizer({
		loadPiAi, agentDir: env.agent.dir, settings: flushConfig({ summarizerModel: env.agent.modelRef, summarizerIdleTimeoutMs: idleTimeoutMs }), maxRetries: 0,
	});
	const lines = (path: string): Json[] => readFileSync(path, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Json);

	it('summarizes a batch: summary (hidden), index, frontier and stats, chained after the leaf; Pi loads it', async () => {
		const builder = toolSession(1);
		const path = env.dir.file('s.jsonl', builder.text());
		const before = readFileSync(path, 'utf8');
		const result = await flushSession(testWork, request(path));
		assert.equal(result.kind, 'written', result.message);
		assert.match(result.message, /^pruner: pruned 2 tool calls from 1 batch — summary \d+ chars vs \d+ raw chars$/);
		const after = readFileSync(path, 'utf8');
		assert.ok(after.startsWith(before));
		const added = lines(path).slice(before.trimEnd().split('\n').length);
		assert.deepEqual(added.map((e) => e['customType']), ['context-prune-summary', 'context-prune-index', 'context-prune-frontier', 'context-prune-stats']);
		const summary = added[0] as Json;
		assert.equal(summary['display'], false);
		assert.equal(summary['parentId'], builder.leafId);
		assert.equal(summary['content'], '- `t1` read the log\n- `t2` read the source\n\n---\n**Summarized tool refs**: `t1`, `t2`\nUse `context_tree_query` with these refs to retrieve the original full outputs.');
		assert.deepEqual(summary['details'], {
			toolCallRefs: [{ shortId: 't1', toolCallId: 'c1a' }, { shortId: 't2', toolCallId: 'c1b' }], toolNames: ['bash', 'read'], turnIndex: 0, timestamp: Date.parse(String(lines(path)[2]?.['timestamp'])),
		});
		const stats = added[3]?.['data'] as Json;
		assert.equal(stats['callCount'], 1);
		assert.ok((stats['totalInputTokens'] as number) > 0);
		assert.equal(env.server.requests.length, 1);
		// Asked as pi-condense asks through pi-ai: one user message of one text block, no output cap.
		const body = env.server.requests[0]?.body ?? {};
		const messages = body['messages'] as { role: string; content: { type: string; text: string }[] }[];
		assert.deepEqual(messages.map((message) => [message.role, message.content.map((block) => block.type)]), [['user', ['text']]]);
		assert.match(messages[0]?.content[0]?.text ?? '', /\n\n<tool-call-batch>\n[^]*\[\[1:bash\]\] Tool: bash\([^]*\[\[2:read\]\] Tool: read\([^]*<\/tool-call-batch>$/);
		assert.equal(body['max_completion_tokens'], undefined);
		assert.equal(body['max_tokens'], undefined);

		const pi = await loadPi();
		const manager = pi.SessionManager.open(path, env.dir.path);
		assert.equal(manager.getLeafId(), added.at(-1)?.['id']);
		assert.equal(manager.getBranch().length, lines(path).length - 1);

		const model = runSteps(parseSessionSteps(after));
		const rendered = runSteps(renderContextSteps(runSteps(buildSessionContextSteps(model)).messages, runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(model)), WRITER_RELEASE)), flushConfig(), WRITER_RELEASE));
		const stubs = rendered.filter((m) => m.role === 'toolResult').map((m) => (m.content[0] as { text: string }).text);
		assert.deepEqual(stubs, [
			'[Summarized in pruner summary, ref `t1`. Use context_tree_query to retrieve full output.]',
			'[Summarized in pruner summary, ref `t2`. Use context_tree_query to retrieve full output.]',
		]);

		const again = await flushSession(testWork, request(path));
		assert.equal(again.kind, 'nothing');
		assert.equal(again.message, 'pruner: nothing pending — no batches to summarize');
		assert.equal(readFileSync(path, 'utf8'), after);
	});

	const failures: { name: string; reply: Parameters<FakeLlmServer['enqueue']>[0]; kind: string; message: RegExp; abortAfterText?: boolean; idleTimeoutMs?: number }[] = [
		{ name: 'HTTP 500', reply: { status: 500, errorMessage: 'upstream exploded' }, kind: 'failed', message: /^pruner: nothing flushed — failed \(.*500.*upstream exploded/ },
		{ name: 'a timeout (the stream goes quiet)', reply: { text: 'partial summary', stallAfterChars: 4 }, idleTimeoutMs: 2000, kind: 'failed', message: /^pruner: nothing flushed — failed \(pi-condense: summarizer .+ stalled \(no output for 2s\); summarizer call abandoned\)$/ },
		{ name: 'an abort mid-stream', reply: { text: 'x'.repeat(400), chunkChars: 5, chunkDelayMs: 20 }, kind: 'aborted', message: /^pruner: nothing flushed — aborted$/, abortAfterText: true },
		{ name: 'an empty reply', reply: { text: '' }, kind: 'failed', message: /^pruner: nothing flushed — summarizer-failed$/ },
		{ name: 'a `length` stop', reply: { text: '- [[1:bash]] cut', finishReason: 'length' }, kind: 'failed', message: /^pruner: nothing flushed — summarizer-failed$/ },
	];
	const sources: { name: string; summarizer: (idleTimeoutMs?: number) => Partial<FlushSessionRequest> }[] = [
		{ name: 'in this thread', summarizer: (idleTimeoutMs = 0) => ({ summarizer: noRetries(idleTimeoutMs) }) },
		{
			name: 'in the pi-ai worker',
			summarizer: (idleTimeoutMs = 0) => ({
				config: flushConfig({ summarizerModel: env.agent.modelRef, summarizerIdleTimeoutMs: idleTimeoutMs }),
				summarizers: (choice) => env.summarizers({ ...choice, maxRetries: 0 }),
			}),
		},
	];
	for (const [failure, source] of failures.flatMap((failure) => sources.map((source) => [failure, source] as const))) {
		it(`leaves the file byte-identical after ${failure.name} (summarizer ${source.name}), and a retry succeeds`, async () => {
			// The session's model is the configured one: no fallback to another model hides the failure.
			const builder = toolSession(2);
			builder.entry({ type: 'model_change', provider: env.agent.provider, modelId: 'fake-model' });
			const path = env.dir.file('s.jsonl', builder.text());
			const before = readFileSync(path, 'utf8');
			env.server.enqueue(failure.reply);
			const controller = new AbortController();
			const result = await flushSession(testWork, request(path, {
				...source.summarizer(failure.idleTimeoutMs),
				interactive: true,
				signal: controller.signal,
				onProgress: (event) => {
					if (failure.abortAfterText && event.type === 'batch-text' && event.receivedChars > 0) {
						controller.abort();
					}
				},
			}));
			assert.equal(result.kind, failure.kind, result.message);
			assert.match(result.message, failure.message);
			assert.equal(readFileSync(path, 'utf8'), before, 'byte-identical');
			assert.equal(env.server.requests.length, 1, 'the second batch is not summarized after the first failed');

			const retry = await flushSession(testWork, request(path, source.summarizer()));
			assert.equal(retry.kind, 'written', retry.message);
			assert.match(retry.message, /^pruner: pruned 4 tool calls from 2 batches/);
			const refs = lines(path).filter((e) => e['customType'] === 'context-prune-summary').map((e) => (e['details'] as { toolCallRefs: { shortId: string }[] }).toolCallRefs.map((r) => r.shortId));
			assert.deepEqual(refs, [['t1', 't2'], ['t3', 't4']]);
		});
	}

	it('skips a summary longer than the raw text: frontier advanced, refs burned, no summary written', async () => {
		const path = env.dir.file('s.jsonl', toolSession(2).text());
		env.server.enqueue({ text: `- [[1:bash]] ${'very long summary '.repeat(200)}` }, { text: '- [[1:bash]] log\n- [[2:read]] source' });
		const result = await flushSession(testWork, request(path, { interactive: true }));
		assert.equal(result.kind, 'written', result.message);
		assert.match([...result.notices].join('\n'), /^pruner: skipped pruning turn 0 \(2 tool calls\) — summary was \d+ chars vs \d+ raw chars; frontier advanced past this range$/m);
		const added = lines(path).filter((e) => typeof e['customType'] === 'string');
		assert.deepEqual(added.map((e) => e['customType']), ['context-prune-summary', 'context-prune-index', 'context-prune-frontier', 'context-prune-stats']);
		assert.deepEqual((added[0]?.['details'] as { toolCallRefs: unknown }).toolCallRefs, [{ shortId: 't3', toolCallId: 'c2a' }, { shortId: 't4', toolCallId: 'c2b' }], 't1 and t2 are burned');
		const frontier = added[2]?.['data'] as Json;
		assert.equal(frontier['lastAttemptedToolCallId'], 'c2b');
		assert.equal(frontier['attemptedBatchCount'], 2);
		assert.equal(frontier['outcome'], 'summarized');
		assert.equal((added[3]?.['data'] as Json)['callCount'], 2, 'the skipped call is counted');

		const single = env.dir.file('one.jsonl', toolSession(1).text());
		env.server.enqueue({ text: `- [[1:bash]] ${'x'.repeat(5000)}` });
		const skipped = await flushSession(testWork, request(single));
		assert.match(skipped.message, /^pruner: skipped pruning 2 tool calls — summary was \d+ chars vs \d+ raw chars; frontier advanced past this range$/);
		assert.deepEqual(lines(single).filter((e) => typeof e['customType'] === 'string').map((e) => [e['customType'], (e['data'] as Json)['outcome']]), [
			['context-prune-frontier', 'skipped-oversized'], ['context-prune-stats', undefined],
		]);
		const again = await flushSession(testWork, request(single));
		assert.equal(again.kind, 'nothing', 'the frontier moved past the skipped batch');
	});

	it('refuses before any summarizer call when the session may not be written', async () => {
		const v1 = env.dir.file('v1.jsonl', readFileSync(join(realSessionsDir, 'large-session.jsonl'), 'utf8'));
		const refusedV1 = await flushSession(testWork, request(v1));
		assert.equal(refusedV1.kind, 'refused');
		assert.equal(refusedV1.refusal?.code, 'not-v3');
		assert.match(refusedV1.message, /^pruner: nothing flushed — the file is a version 1 session/);
		assert.ok(refusedV1.advice);

		const path = env.dir.file('s.jsonl', toolSession(1).text());
		const before = readFileSync(path, 'utf8');
		const piRunning = await flushSession(testWork, request(path, {
			writeOptions: { ...writeOptions, checkPiHolders: () => Promise.resolve({ checked: true, holders: [{ pid: 4242, command: 'pi', why: 'file-open' }] }) },
		}));
		assert.equal(piRunning.kind, 'refused');
		assert.equal(piRunning.refusal?.code, 'pi-running');
		assert.equal(readFileSync(path, 'utf8'), before);
		assert.equal(env.server.requests.length, 0, 'no tokens spent on a session that cannot be written');
	});

	it('writes nothing when the session changed while the summaries were computed', async () => {
		const builder = toolSession(1);
		const path = env.dir.file('s.jsonl', builder.text());
		const piLine = `${JSON.stringify({ type: 'message', id: 'feedbeef', parentId: builder.leafId, timestamp: new Date().toISOString(), message: { role: 'user', content: [{ type: 'text', text: 'next' }], timestamp: Date.now() } })}\n`;
		const piAi = noRetries(0);
		const result = await flushSession(testWork, request(path, {
			summarizer: {
				label: piAi.label,
				summarize: async (req) => {
					const answer = await piAi.summarize(req);
					appendFileSync(path, piLine);
					return answer;
				},
			},
		}));
		assert.equal(result.kind, 'refused', result.message);
		assert.equal(result.refusal?.code, 'plan-stale');
		assert.equal(readFileSync(path, 'utf8'), builder.text() + piLine);
	});

	it('runs the summarizer calls through the pi-ai worker side by side, at most `concurrency` at once; the entries are the same', async () => {
		const written: string[] = [];
		for (const concurrency of [4, 2, 1]) {
			const path = env.dir.file(`c${concurrency}.jsonl`, toolSession(4).text());
			const before = readFileSync(path, 'utf8');
			// Each answer waits until `concurrency` calls are in flight (reached however slow the machine), then 150 ms more, in which a call beyond the cap would show.
			env.server.setDefaultReply({ text: '- [[1:bash]] read the log\n- [[2:read]] read the source', holdUntilInFlight: concurrency, latencyMs: 150 });
			env.server.resetPeak();
			const result = await flushSession(testWork, request(path, { concurrency }));
			assert.equal(result.kind, 'written', result.message);
			assert.equal(env.server.peakInFlight, concurrency, `concurrency ${concurrency}`);
			written.push(readFileSync(path, 'utf8').slice(before.length).replace(/"(id|parentId|timestamp)":"[^"]*"/g, '').replace(/"ts":\d+/g, ''));
		}
		assert.equal(new Set(written).size, 1, 'the same entries whatever the concurrency');
	});

	it('keeps the batches before a failure and nothing after it (parallel calls)', async () => {
		const path = env.dir.file('s.jsonl', toolSession(3).text());
		const piAi = noRetries(0);
		const failingSecond: Summarizer = {
			label: piAi.label,
			summarize: (req) => (req.prompt.includes('Batch 2.') ? Promise.reject(new SummarizerError('error', 'scripted failure')) : piAi.summarize(req)),
		};
		const result = await flushSession(testWork, request(path, { summarizer: failingSecond }));
		assert.equal(result.kind, 'failed', result.message);
		assert.match([...result.notices].join('\n'), /pruner: summarization failed: scripted failure/);
		const summaries = lines(path).filter((e) => e['customType'] === 'context-prune-summary');
		assert.equal(summaries.length, 1);
		const frontier = lines(path).find((e) => e['customType'] === 'context-prune-frontier')?.['data'] as Json;
		assert.equal(frontier['lastAttemptedToolCallId'], 'c1b', 'the frontier stops before the failed batch');
		const retry = await flushSession(testWork, request(path));
		assert.equal(retry.kind, 'written', retry.message);
		assert.match(retry.message, /^pruner: pruned 4 tool calls from 2 batches/);
	});

	it('plans on the branch, context and state the caller derived (its insight) instead of building them again; the entries are the same', async () => {
		const plain = env.dir.file('plain.jsonl', toolSession(2).text());
		const given = env.dir.file('given.jsonl', readFileSync(plain, 'utf8'));
		const base = await readSessionModel(testWork, given);
		const asked: string[] = [];
		class CountingInsight extends SessionInsight {
			override *branchSteps(): ReturnType<SessionInsight['branchSteps']> {
				asked.push('branch');
				return yield* super.branchSteps();
			}
			override *contextSteps(): ReturnType<SessionInsight['contextSteps']> {
				asked.push('context');
				return yield* super.contextSteps();
			}
			override *stateSteps(): ReturnType<SessionInsight['stateSteps']> {
				asked.push('state');
				return yield* super.stateSteps();
			}
		}
		const template = request(given);
		const config = template.config ?? assert.fail('the request has a configuration');
		const insight = new CountingInsight(base.model, config, template.rules);
		const withInsight = await flushSession(testWork, { ...template, base: { model: base.model, consumedBytes: base.consumed }, insight });
		const without = await flushSession(testWork, request(plain));
		assert.equal(withInsight.kind, 'written', withInsight.message);
		assert.deepEqual([...new Set(asked)].sort(), ['branch', 'context', 'state'], 'the given insight was asked for each');
		assert.deepEqual(withInsight.notices, without.notices);
		const added = (path: string): string[] => lines(path).slice(1).map((entry) => String(entry['customType'] ?? entry['type']));
		assert.deepEqual(added(given), added(plain));
	});
});


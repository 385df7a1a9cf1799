/**
 * `runFlush` on small sessions: notices, modes and the paths the bigger tests do not isolate.
 */
import assert from 'node:assert/strict';
import { buildCondenseStateSteps, contentText, renderContextSteps, syntheticBlockId } from '../../../../src/engine/condense';
import { resolveConfig } from '../../../../src/engine/config/resolve';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../../src/engine/session';
import { runFlush, type FlushProgress } from '../../../../src/engine/flush';
import { SummarizerError } from '../../../../src/engine/ports';
import { flushText } from '../../../support/flushHarness';
import { flushConfig, output, toolSession } from '../../../support/flushFixtures';
import { scriptedSummarizer } from '../../../support/scriptedSummarizer';
import { SessionBuilder, text, toolCall } from '../../../support/sessionBuilder';
import { LATEST, WRITER_RELEASE } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';
import { releaseRules } from '../../../../src/engine/release/releases';

type Json = Record<string, unknown>;
const labelled = scriptedSummarizer((request) => (request.input?.kind === 'batch' ? request.input.calls.map((c) => `- ${c.label} ok`).join('\n') : 'fused'));
const drafts = (t: string, before: string): Json[] => t.slice(before.length).trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Json);

/** Two prompts with one batch each, then a third prompt (all closed). */
function threePrompts(protectedCall = false): string {
	const b = toolSession(1, 'p');
	b.user('Second.');
	b.assistant([toolCall('q1', 'bash', { command: 'make' }), ...(protectedCall ? [toolCall('todo', 'todoread', {})] : [])]);
	b.toolResult('q1', 'bash', output('make', 1500));
	if (protectedCall) {
		b.toolResult('todo', 'todoread', 'plan: 1. build 2. test');
	}
	b.assistant([text('Built.')]);
	b.user('Third.');
	b.assistant([toolCall('r1', 'bash', { command: 'test' })]);
	b.toolResult('r1', 'bash', output('test', 1500));
	b.assistant([text('Tested.')]);
	return b.text();
}

describe('runFlush', () => {
	it('does nothing when pruning is disabled (now), but compact still runs', async () => {
		const session = threePrompts();
		const off = resolveConfig({ enabled: false }, WRITER_RELEASE).config;
		const now = await flushText(session, off, labelled);
		assert.equal(now.result.status, 'disabled');
		assert.equal(now.result.message, 'Context pruning is disabled. Run /pruner on first.');
		// Chains no summary covers are compressed deterministically from 2.9.0; before, they are skipped.
		const older = await flushText(session, off, labelled, { mode: 'compact', rules: releaseRules('2.8.0') });
		assert.equal(older.result.message, 'pruner: no chains eligible for compaction (3 skipped — no per-batch summary available)');
		const compact = await flushText(session, off, labelled, { mode: 'compact', rules: LATEST });
		assert.equal(compact.result.status, 'completed');
		assert.match(compact.result.message, /^pruner: compacted 3 chains \(b1, b2, b3\), reclaimed ~\d+ tokens$/);
		const chains = drafts(compact.text, session).filter((e) => e['customType'] === 'context-prune-chain');
		assert.ok(chains.every((c) => (c['data'] as Json)['bodySource'] === 'deterministic'), 'nothing was summarized: deterministic bodies');
		const again = await flushText(compact.text, off, labelled, { mode: 'compact', rules: LATEST });
		assert.equal(again.result.message, 'pruner: no chains eligible for compaction');
	});

	it('compresses chains beyond the rolling window after summarizing, relocating protected outputs', async () => {
		const session = threePrompts(true);
		const config = flushConfig({ protectedTools: ['todoread'], chainCompression: { rollingWindow: 1 } });
		const { result, text: after } = await flushText(session, config, labelled);
		assert.equal(result.notices.length, 2);
		assert.equal([...result.notices][0], 'pruner: compressed 2 chains (b1, b2)');
		assert.match(result.message, /^pruner: pruned 4 tool calls from 3 batches — summary \d+ chars vs \d+ raw chars$/);
		const chains = drafts(after, session).filter((e) => e['customType'] === 'context-prune-chain').map((e) => e['data'] as Json);
		assert.deepEqual(chains.map((c) => [c['blockId'], c['droppedToolCallIds'], c['protectedToolCallIds'], c['toolRefs'], c['rangeSummaryText']]), [
			['b1', ['p1a', 'p1b'], undefined, ['t1', 't2'], undefined],
			['b2', ['q1', 'todo'], ['todo'], ['t3'], undefined],
		]);
		const stats = drafts(after, session).filter((e) => e['customType'] === 'context-prune-stats').map((e) => e['data'] as Json);
		assert.deepEqual(stats.map((s) => [s['callCount'], s['chainsCompressed'], s['rangesSummarized']]), [[3, 0, 0], [3, 2, 0]]);
		const model = runSteps(parseSessionSteps(after));
		const rendered = runSteps(renderContextSteps(runSteps(buildSessionContextSteps(model)).messages, runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(model)), WRITER_RELEASE)), config, WRITER_RELEASE));
		const b2 = rendered.find((m) => syntheticBlockId(m) === 'b2');
		assert.equal(b2 && contentText(b2.role === 'user' ? b2.content : ''), [
			'<compressed-chain id="b2" tools="t3">',
			'- `t3` ok',
			'',
			'---',
			'**Summarized tool refs**: `t3`',
			'Use `context_tree_query` with these refs to retrieve the original full outputs.',
			'',
			'<protected-output tool="todoread">',
			'plan: 1. build 2. test',
			'</protected-output>',
			'</compressed-chain>',
		].join('\n'));
	});

	it('fuses two or more summaries, and falls back to concatenation when the fusion fails', async () => {
		const session = toolSession(2).text();
		const config = flushConfig({ chainCompression: { rollingWindow: 0 } });
		const fused = await flushText(session, config, labelled);
		const chain = drafts(fused.text, session).find((e) => e['customType'] === 'context-prune-chain')?.['data'] as Json;
		assert.equal(chain['rangeSummaryText'], 'fused');
		const failing = scriptedSummarizer((request) => (request.input?.kind === 'range' ? new SummarizerError('error', 'down') : request.input?.kind === 'batch' ? request.input.calls.map((c) => `- ${c.label} ok`).join('\n') : ''));
		const fallback = await flushText(session, config, failing);
		const plain = drafts(fallback.text, session).find((e) => e['customType'] === 'context-prune-chain')?.['data'] as Json;
		assert.equal(fallback.result.status, 'completed');
		assert.equal('rangeSummaryText' in plain, false);
		const stats = drafts(fallback.text, session).filter((e) => e['customType'] === 'context-prune-stats').at(-1)?.['data'] as Json;
		assert.deepEqual([stats['callCount'], stats['chainsCompressed'], stats['rangesSummarized']], [2, 1, 0]);
	});

	it('merges the batches of one user turn in agent-message batching mode', async () => {
		const session = toolSession(3).text();
		const { result, text: after } = await flushText(session, flushConfig({ batchingMode: 'agent-message', chainCompression: { enabled: false } }), labelled);
		assert.match(result.message, /^pruner: pruned 6 tool calls from 1 batch — summary \d+ chars vs \d+ raw chars$/);
		const summary = drafts(after, session).find((e) => e['customType'] === 'context-prune-summary');
		assert.deepEqual((summary?.['details'] as Json)['turnIndex'], 2);
		assert.match(String(summary?.['content']), /^- `t1` ok\n- `t2` ok\n- `t3` ok\n- `t4` ok\n- `t5` ok\n- `t6` ok\n/);
	});

	it('reports progress per batch, one call at a time when interactive', async () => {
		const events: FlushProgress[] = [];
		const b = toolSession(2);
		b.user('Small.');
		b.assistant([toolCall('s1', 'bash', { command: 'pwd' })]);
		b.toolResult('s1', 'bash', '/work');
		b.assistant([text('Here.')]);
		const model = runSteps(parseSessionSteps(b.text()));
		await runFlush({
			mode: 'now', branch: runSteps(getBranchSteps(model)), messages: runSteps(buildSessionContextSteps(model)).messages, config: flushConfig({ chainCompression: { enabled: false } }), rules: WRITER_RELEASE,
			interactive: true, onProgress: (e) => events.push(e),
		}, { summarizer: labelled, hash: (t) => String(t.length), now: () => 0 });
		assert.deepEqual(events.map((e) => e.type === 'batch-text' ? `text ${e.index}` : e.type === 'batches' ? `batches ${e.batches.length}` : `${e.type} ${'index' in e ? e.index : ''}${e.type === 'batch-skipped' ? ` ${e.reason}` : ''}`), [
			'batches 3', 'batch-skipped 2 trivial', 'batch-start 0', 'text 0', 'batch-done 0', 'batch-start 1', 'text 1', 'batch-done 1',
		]);
	});

	it('silences skip notices with quietOversizedSkips, and stays untouched by an abort', async () => {
		const b = new SessionBuilder();
		b.user('Small things.');
		b.assistant([toolCall('s1', 'bash', { command: 'pwd' })]);
		b.toolResult('s1', 'bash', '/work');
		b.assistant([text('Here.')]);
		const loud = await flushText(b.text(), flushConfig(), labelled);
		assert.deepEqual([...loud.result.notices], [
			'pruner: skipped pruning turn 0 (1 tool call) — only 5 raw chars (< minBatchChars=1000); no LLM call made; frontier advanced past this range',
			'pruner: skipped 1 trivial tool call — only 5 raw chars below minBatchChars=1000; no LLM call made; frontier advanced past this range',
		]);
		const quiet = await flushText(b.text(), flushConfig({ quietOversizedSkips: true }), labelled);
		assert.deepEqual([...quiet.result.notices], [loud.result.message]);

		const controller = new AbortController();
		controller.abort();
		const aborted = await flushText(toolSession(1).text(), flushConfig(), labelled, { signal: controller.signal });
		assert.equal(aborted.result.status, 'aborted');
		assert.equal(aborted.result.message, 'pruner: nothing flushed — aborted');
		assert.deepEqual(aborted.result.drafts, []);
	});

});

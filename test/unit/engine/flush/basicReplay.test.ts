/**
 * Replays `pi-condense-sessions/basic` (4 prompts flushed by real pi-condense 2.0.0 at the end of
 * each reply) with our flush: the same messages, one `now` after each reply. Each flush must write
 * what pi-condense wrote (spill, burned ref `t5`, dedup alias, fused chain `b1`, single-summary
 * chain `b2`), apart from the facts that differ by design: we write after the final reply (Pi has
 * persisted it by the time VS Code sees the session), summaries are hidden (`display: false`,
 * 2.0.1), the spilled record's turn index counts every assistant on the branch, its timestamp is
 * its result's (pi-condense stamps the `turn_end` moment, a millisecond later here) and its
 * `spillPath` is our blob folder, and chain timestamps are our clock's.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCondenseState, renderContext } from '../../../../src/engine/condense';
import { buildSessionContext, getBranch, parseSession } from '../../../../src/engine/session';
import type { AgentMessage } from '../../../../src/engine/session/types';
import { flushText, memorySpillWriter } from '../../../support/flushHarness';
import { oracleReply } from '../../../support/oracleReplies';
import { piCondenseSessionsDir } from '../../../support/paths';
import { scriptedSummarizer } from '../../../support/scriptedSummarizer';
import { referenceConfig } from '../condense/piReference';
import { R200 } from '../../../support/releases';

type Json = Record<string, unknown>;
const BASIC = join(piCondenseSessionsDir, 'basic');

describe('flush replay of the basic reference session', () => {
	const lines = readFileSync(join(BASIC, 'session.jsonl'), 'utf8').trimEnd().split('\n');
	const entry = (n: number): Json => JSON.parse(lines[n - 1] as string) as Json;
	const payload = (e: Json): unknown => (e['type'] === 'custom' ? e['data'] : { content: e['content'], details: e['details'] });

	/** Appends lines `numbers` of the reference file, re-chained after the current leaf. */
	function appendMessages(text: string, numbers: number[]): string {
		let leaf = parseSession(text).leafId;
		let out = text;
		for (const n of numbers) {
			const e = entry(n);
			out += `${JSON.stringify({ ...e, parentId: leaf })}\n`;
			leaf = e['id'] as string;
		}
		return out;
	}

	/** Our new lines since `before`, parsed. */
	const newEntries = (before: string, after: string): Json[] => after.slice(before.length).trimEnd().split('\n').map((l) => JSON.parse(l) as Json);

	it('writes pi-condense\'s entries flush by flush, and renders its context', async () => {
		// The session was written by 2.0.0: our flush replays it, and 2.0.0 reads the result.
		const config = referenceConfig('basic', R200);
		const summarizer = scriptedSummarizer((request) => oracleReply(request.prompt));
		const spill = memorySpillWriter('/our/blobs');
		let text = `${lines.slice(0, 3).join('\n')}\n`;

		// Prompt 1: two batches summarized as t1–t4.
		text = appendMessages(text, [4, 5, 6, 7, 8, 9, 10, 17]);
		let before = text;
		({ text } = await flushText(text, config, summarizer, { spill, release: R200 }));
		let ours = newEntries(before, text);
		assert.deepEqual(ours.map((e) => e['customType']), ['context-prune-summary', 'context-prune-index', 'context-prune-summary', 'context-prune-index', 'context-prune-frontier', 'context-prune-stats']);
		[11, 12, 13, 14, 15].forEach((n, i) => assert.deepEqual(payload(ours[i] as Json), payload(entry(n)), `line ${n}`));
		assert.equal(ours[0]?.['display'], false);

		// Prompt 2: a spilled log, a failed edit whose summary is oversized (t5 burned), t6–t7, chain b1 fused.
		text = appendMessages(text, [18, 19, 20, 21, 22, 23, 24, 25, 33]);
		before = text;
		({ text } = await flushText(text, config, summarizer, { spill, nowMs: 1796020565879 }));
		ours = newEntries(before, text);
		assert.deepEqual(ours.map((e) => e['customType']), [
			'context-prune-index', 'context-prune-summary', 'context-prune-index', 'context-prune-frontier', 'context-prune-stats', 'context-prune-chain', 'context-prune-stats',
		]);
		const spilled = (ours[0]?.['data'] as { toolCalls: Json[] }).toolCalls[0] as Json;
		const realSpilled = (entry(26)['data'] as { toolCalls: Json[] }).toolCalls[0] as Json;
		assert.deepEqual({ ...spilled, turnIndex: 2, spillPath: realSpilled['spillPath'], timestamp: realSpilled['timestamp'] }, realSpilled);
		assert.equal(spilled['timestamp'], (entry(25)['message'] as Json)['timestamp'], 'the result\'s own time');
		assert.equal(spilled['spillPath'], '/our/blobs/call_p1_t2_0.txt');
		assert.equal(spill.blobs.get('call_p1_t2_0.txt'), readFileSync(join(BASIC, '01a22b2a-f0d9-7c01-8264-6403bf89dbdf-blobs', 'call_p1_t2_0.txt'), 'utf8'));
		[[27, 1], [28, 2], [29, 3], [31, 5]].forEach(([n, i]) => assert.deepEqual(payload(ours[i as number] as Json), payload(entry(n as number)), `line ${n}`));
		assert.deepEqual(statsCounters(ours[4]), statsCounters(entry(30)));
		assert.deepEqual(statsCounters(ours[6]), statsCounters(entry(32)));

		// Prompt 3: a duplicate read aliased to t4's record, a context_tree_query summarized as t8, chain b2.
		text = appendMessages(text, [34, 35, 36, 37, 38, 46]);
		before = text;
		({ text } = await flushText(text, config, summarizer, { spill, nowMs: 1796020567068 }));
		ours = newEntries(before, text);
		[[39, 0], [40, 1], [41, 2], [42, 3], [44, 5]].forEach(([n, i]) => assert.deepEqual(payload(ours[i as number] as Json), payload(entry(n as number)), `line ${n}`));
		assert.deepEqual(ours.map((e) => e['customType']), [
			'context-prune-dedup-alias', 'context-prune-summary', 'context-prune-index', 'context-prune-frontier', 'context-prune-stats', 'context-prune-chain', 'context-prune-stats',
		]);
		assert.deepEqual(statsCounters(ours[4]), statsCounters(entry(43)));
		assert.deepEqual(statsCounters(ours[6]), statsCounters(entry(45)));

		// Prompt 4 (no tools): nothing pending.
		text = appendMessages(text, [47, 48]);
		const last = await flushText(text, config, summarizer, { spill, release: R200 });
		assert.equal(last.result.message, 'pruner: nothing pending — no batches to summarize');
		assert.deepEqual(last.result.drafts, []);

		// The context pi-condense sent, but for our summaries' place after the reply, display and timestamps.
		const model = parseSession(text);
		const rendered = renderContext(buildSessionContext(model).messages, buildCondenseState(getBranch(model), R200), config, R200);
		const expected = JSON.parse(readFileSync(join(BASIC, 'expected-context.json'), 'utf8')) as AgentMessage[];
		assert.deepEqual(normalize(rendered.filter((m) => m.role !== 'custom')), normalize(expected.filter((m) => m.role !== 'custom')));
		assert.deepEqual(normalize(rendered.filter((m) => m.role === 'custom')), normalize(expected.filter((m) => m.role === 'custom')));
	});
});

function statsCounters(e: Json | undefined): unknown {
	const { callCount, chainsCompressed, rangesSummarized } = (e?.['data'] ?? {}) as Json;
	return { callCount, chainsCompressed, rangesSummarized };
}

/** Drops what differs by design: custom message display and timestamps, synthetic chain timestamps. */
function normalize(messages: readonly AgentMessage[]): unknown[] {
	return messages.map((message) => {
		if (message.role === 'custom') {
			const { display: _display, timestamp: _timestamp, ...rest } = message;
			return rest;
		}
		if (message.role === 'user' && JSON.stringify(message.content).includes('<compressed-chain')) {
			return { ...message, timestamp: 0 };
		}
		return message;
	});
}

/**
 * Parity with real pi-condense 2.0.0 on a real session: `pi-condense-sessions/large-bulk` is
 * `real-sessions/large-session.migrated-v3.jsonl` plus one prompt, flushed by real pi-condense in
 * one go. Our flush of the same branch, with summaries in the style of the scripted model that
 * answered it, must produce the same entries: every summary (content, refs, details), every index
 * record, the frontier and the stats counters, and every chain pi-condense compressed.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runFlush } from '../../../../src/engine/flush';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../../src/engine/session';
import { sha1Hex } from '../../../../src/node/flush/sha1Hasher';
import { oracleReply } from '../../../support/oracleReplies';
import { piCondenseSessionsDir } from '../../../support/paths';
import { scriptedSummarizer } from '../../../support/scriptedSummarizer';
import { referenceConfig } from '../condense/piReference';
import { R200 } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';

type Json = Record<string, unknown>;

describe('flush parity with real pi-condense (large-bulk)', () => {
	it('writes the entries pi-condense wrote for the same branch', async () => {
		const lines = readFileSync(join(piCondenseSessionsDir, 'large-bulk', 'session.jsonl'), 'utf8').trimEnd().split('\n');
		const entries = lines.map((line) => JSON.parse(line) as Json);
		const firstPruner = entries.findIndex((e) => typeof e['customType'] === 'string');
		const finalReply = entries.at(-1) as Json;
		const userPrompt = entries[firstPruner - 1] as Json;
		const before = [...lines.slice(0, firstPruner), JSON.stringify({ ...finalReply, parentId: userPrompt['id'] })];
		const model = runSteps(parseSessionSteps(`${before.join('\n')}\n`));
		assert.deepEqual(model.diagnostics, []);
		const config = { ...referenceConfig('large-bulk', R200), spillThreshold: 10_000_000 };
		const summarizer = scriptedSummarizer((request) => oracleReply(request.prompt));
		const result = await runFlush(
			{ mode: 'now', branch: runSteps(getBranchSteps(model)), messages: runSteps(buildSessionContextSteps(model)).messages, config, rules: R200 },
			{ summarizer, hash: sha1Hex, now: () => 1796020581125 },
		);
		assert.equal(result.status, 'completed', result.message);
		const real = entries.slice(firstPruner, -1);
		const ours = result.drafts.map((d) => JSON.parse(JSON.stringify(d)) as Json);
		const payload = (e: Json): unknown => e['type'] === 'custom' ? e['data'] : { content: e['content'], details: e['details'] };
		const ofType = (list: Json[], type: string): Json[] => list.filter((e) => e['customType'] === type);

		const realSummaries = ofType(real, 'context-prune-summary');
		const ourSummaries = ofType(ours, 'context-prune-summary');
		assert.equal(ourSummaries.length, realSummaries.length);
		realSummaries.forEach((summary, i) => assert.deepEqual(payload(ourSummaries[i] as Json), payload(summary), `summary ${i}`));

		const realIndex = ofType(real, 'context-prune-index');
		const ourIndex = ofType(ours, 'context-prune-index').filter((e) => !isBackfill(e));
		assert.equal(ourIndex.length, realIndex.length);
		realIndex.forEach((index, i) => assert.deepEqual(payload(ourIndex[i] as Json), payload(index), `index ${i}`));

		assert.deepEqual(payload(ofType(ours, 'context-prune-frontier')[0] as Json), payload(ofType(real, 'context-prune-frontier')[0] as Json));
		const counters = (e: Json) => { const { callCount, chainsCompressed, rangesSummarized } = e['data'] as Json; return { callCount, chainsCompressed, rangesSummarized }; };
		const realStats = ofType(real, 'context-prune-stats').map(counters);
		const ourStats = ofType(ours, 'context-prune-stats').map(counters);
		assert.deepEqual(ourStats[0], realStats[0]);

		const realChains = ofType(real, 'context-prune-chain').map((e) => e['data'] as Json);
		const ourChains = ofType(ours, 'context-prune-chain').map((e) => e['data'] as Json);
		const ourByStart = new Map(ourChains.map((c) => [c['startUserTimestamp'], c]));
		for (const chain of realChains) {
			const mine = ourByStart.get(chain['startUserTimestamp']);
			assert.ok(mine, `chain ${String(chain['blockId'])} compressed`);
			const { blockId: _a, compressedAt: _b, ...expected } = chain;
			const { blockId: _c, compressedAt: _d, ...actual } = mine;
			assert.deepEqual(actual, expected, `chain ${String(chain['blockId'])}`);
		}
		const extra = ourChains.filter((c) => !realChains.some((r) => r['startUserTimestamp'] === c['startUserTimestamp']));
		assert.ok(extra.every((c) => c['bodySource'] === 'deterministic'), 'only chains pi-condense 2.0.0 skipped (no summary) are extra');
	});
});

function isBackfill(entry: Json): boolean {
	const calls = (entry['data'] as { toolCalls: Json[] }).toolCalls;
	return calls.every((call) => call['turnIndex'] === -1);
}

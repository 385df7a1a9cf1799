import assert from 'node:assert/strict';
import { budgetTrigger, idleFlushDecision, readContextUsage } from '../../../../src/engine/flush';
import type { SessionEntry } from '../../../../src/engine/session/types';
import { LATEST } from '../../../support/releases';
import { assistant, call, text } from '../condense/builders';
import { releaseRules } from '../../../../src/engine/release/releases';

const usage = (totalTokens: number) => ({ input: totalTokens, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } });
let counter = 0;
const reply = (tokens: number, stopReason: 'stop' | 'toolUse' | 'error' = 'stop'): SessionEntry => ({
	type: 'message', id: `m${++counter}`, parentId: null, timestamp: '2026-01-01T00:00:00.000Z', message: { ...assistant(counter, text('x')), usage: usage(tokens), stopReason },
});
const compaction: SessionEntry = { type: 'compaction', id: 'c', parentId: null, timestamp: '2026-01-01T00:00:00.000Z', summary: 's', tokensBefore: 1 };

describe('budget triggers', () => {
	const on = { enabled: true, autoBudgetThreshold: 0.8, budgetTurnDelta: 0.2 };

	it('reads the last two valid usages, and nothing across a compaction', () => {
		assert.deepEqual(readContextUsage([reply(100), reply(999, 'error'), reply(300)]), { tokens: 300, previousTokens: 100 });
		assert.deepEqual(readContextUsage([reply(100), compaction, reply(300)]), { tokens: 300, previousTokens: null });
		assert.deepEqual(readContextUsage([reply(100), compaction]), { tokens: null, previousTokens: null });
	});

	const r27 = releaseRules('2.7.0');
	const r28 = releaseRules('2.8.0');

	it('fires at the threshold of the window; from 2.8.0 at min(300k, threshold × window)', () => {
		for (const rules of [r27, r28, LATEST]) {
			assert.equal(budgetTrigger(on, { tokens: 160_000, previousTokens: 150_000 }, 200_000, rules), 'threshold', rules.version);
			assert.equal(budgetTrigger(on, { tokens: 159_999, previousTokens: 150_000 }, 200_000, rules), undefined, rules.version);
		}
		// A 1M window: 2.7.0 waits for 800k tokens; 2.8.0 fires at the 300k ceiling, not before.
		assert.equal(budgetTrigger(on, { tokens: 300_000, previousTokens: 290_000 }, 1_000_000, r27), undefined);
		assert.equal(budgetTrigger(on, { tokens: 800_000, previousTokens: 790_000 }, 1_000_000, r27), 'threshold');
		assert.equal(budgetTrigger(on, { tokens: 299_999, previousTokens: 290_000 }, 1_000_000, r28), undefined);
		assert.equal(budgetTrigger(on, { tokens: 300_000, previousTokens: 290_000 }, 1_000_000, r28), 'threshold');
		assert.equal(budgetTrigger({ ...on, autoBudgetThreshold: 0.1 }, { tokens: 100_000, previousTokens: 95_000 }, 1_000_000, r28), 'threshold', 'below the ceiling, threshold × window');
		assert.equal(budgetTrigger({ ...on, autoBudgetThreshold: 1 }, { tokens: 300_000, previousTokens: null }, 1_000_000, r28), 'threshold');
	});

	it('fires on a rise of at least the delta since the previous reply; from 2.8.0 on the capped window', () => {
		for (const rules of [r27, r28]) {
			assert.equal(budgetTrigger(on, { tokens: 100_000, previousTokens: 40_000 }, 300_000, rules), 'delta', rules.version);
			assert.equal(budgetTrigger(on, { tokens: 100_000, previousTokens: 41_000 }, 300_000, rules), undefined, rules.version);
			assert.equal(budgetTrigger(on, { tokens: 100_000, previousTokens: null }, 300_000, rules), undefined, 'no previous reply, no delta');
		}
		// +60k on a 1M window: 6% of it before 2.8.0, 20% of the 300k ceiling from 2.8.0.
		assert.equal(budgetTrigger(on, { tokens: 100_000, previousTokens: 40_000 }, 1_000_000, r27), undefined);
		assert.equal(budgetTrigger(on, { tokens: 100_000, previousTokens: 40_000 }, 1_000_000, r28), 'delta');
	});

	it('is off when disabled, out of range, without tokens or without a window', () => {
		const reading = { tokens: 290_000, previousTokens: 0 };
		assert.equal(budgetTrigger({ ...on, enabled: false }, reading, 300_000, LATEST), undefined);
		assert.equal(budgetTrigger({ enabled: true, autoBudgetThreshold: 0, budgetTurnDelta: 1.5 }, reading, 300_000, LATEST), undefined);
		assert.equal(budgetTrigger({ enabled: true, autoBudgetThreshold: null, budgetTurnDelta: null }, reading, 300_000, LATEST), undefined);
		assert.equal(budgetTrigger(on, { tokens: null, previousTokens: null }, 300_000, LATEST), undefined);
		assert.equal(budgetTrigger(on, reading, 0, LATEST), undefined);
	});
});

describe('idle (agent-message) trigger', () => {
	const config = { enabled: true, pruneOn: 'agent-message' as const };
	const finalReply = reply(10);
	const toolCallReply: SessionEntry = { ...finalReply, type: 'message', message: assistant(1, call('a', 'bash')) };
	const custom: SessionEntry = { type: 'custom', id: 'p', parentId: null, timestamp: '2026-01-01T00:00:00.000Z', customType: 'context-prune-stats', data: {} };

	it('is due on a final reply in a quiet file', () => {
		assert.deepEqual(idleFlushDecision({ config, leaf: finalReply, fileMtimeMs: 0, nowMs: 5000, quietMs: 3000 }), { due: true });
	});

	it('is not due otherwise, and says why', () => {
		const base = { config, leaf: finalReply, fileMtimeMs: 0, nowMs: 5000, quietMs: 3000 };
		assert.deepEqual(idleFlushDecision({ ...base, config: { ...config, enabled: false } }), { due: false, reason: 'disabled' });
		assert.deepEqual(idleFlushDecision({ ...base, config: { enabled: true, pruneOn: 'on-demand' } }), { due: false, reason: 'on-demand' });
		assert.deepEqual(idleFlushDecision({ ...base, leaf: toolCallReply }), { due: false, reason: 'not-a-final-reply' });
		assert.deepEqual(idleFlushDecision({ ...base, leaf: custom }), { due: false, reason: 'not-a-final-reply' }, 'after our own flush the leaf is ours');
		assert.deepEqual(idleFlushDecision({ ...base, nowMs: 2000 }), { due: false, reason: 'not-quiet' });
	});
});

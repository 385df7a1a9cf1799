import assert from 'node:assert/strict';
import { join } from 'node:path';
import { formatCompactCount, formatCost } from '../../../../src/engine/condense/measure/compactFormat';
import { contextBreakdownSteps, measureReclaimSteps } from '../../../../src/engine/condense/measure/contextSize';
import { pendingStatusText, pruneStatusText, SUMMARIZING_STATUS_TEXT } from '../../../../src/engine/condense/measure/statusText';
import type { AgentMessage } from '../../../../src/engine/session/types';
import { loadSession, readJson, REFERENCE_DIR } from './piReference';
import { runSteps } from '../../../../src/engine/steps';

describe('status texts', () => {
	const on = { enabled: true };

	it('formats pi-condense\'s examples byte for byte', () => {
		assert.equal(pruneStatusText({ enabled: false }, { beforeChars: 400, afterChars: 100 }), 'prune: OFF');
		assert.equal(pruneStatusText(on), 'prune: ON');
		assert.equal(pruneStatusText(on, { beforeChars: 0, afterChars: 0 }), 'prune: ON');
		assert.equal(pruneStatusText(on, { beforeChars: 368_000, afterChars: 56_000 }), 'prune: ON \u00b7 92.0k->14.0k (-85%)');
		assert.equal(pruneStatusText(on, { beforeChars: 8_000_000, afterChars: 400 }), 'prune: ON \u00b7 2.0M->100 (-100%)');
		assert.equal(pendingStatusText(3), 'prune: 3 pending');
		assert.equal(SUMMARIZING_STATUS_TEXT, 'prune: summarizing\u2026');
	});

	it('clamps the reduction at 0 when the context grows', () => {
		assert.equal(pruneStatusText(on, { beforeChars: 4000, afterChars: 8000 }), 'prune: ON \u00b7 1.0k->2.0k (-0%)');
		assert.equal(pruneStatusText(on, { beforeChars: 1, afterChars: 100 }), 'prune: ON \u00b7 0->25 (-0%)');
	});

	it('formats counts and costs', () => {
		assert.deepEqual([0, 999, 1000, 1234, 999_949, 1_000_000, 1_250_000].map(formatCompactCount), ['0', '999', '1.0k', '1.2k', '999.9k', '1.0M', '1.3M']);
		assert.deepEqual([0, 0.0004, 0.001, 0.0034, 1.5].map(formatCost), ['$0.000', '<$0.001', '$0.001', '$0.003', '$1.500']);
	});
});

describe('context measurement', () => {
	it('does not measure an unchanged render', () => {
		const messages: AgentMessage[] = [];
		assert.equal(runSteps(measureReclaimSteps(messages, messages)), undefined);
	});

	it('measures JSON.stringify length before and after', () => {
		const loaded = loadSession(join(REFERENCE_DIR, 'basic', 'session.jsonl'));
		const expected = readJson<AgentMessage[]>(join(REFERENCE_DIR, 'basic', 'expected-context.json'));
		assert.deepEqual(runSteps(measureReclaimSteps(loaded.messages, expected)), {
			beforeChars: JSON.stringify(loaded.messages).length,
			afterChars: JSON.stringify(expected).length,
		});
	});

	it('splits the size into categories that add up to the serialized length', () => {
		for (const folder of ['basic', 'large-bulk']) {
			const loaded = loadSession(join(REFERENCE_DIR, folder, 'session.jsonl'));
			const expected = readJson<AgentMessage[]>(join(REFERENCE_DIR, folder, 'expected-context.json'));
			for (const messages of [loaded.messages, expected]) {
				const breakdown = runSteps(contextBreakdownSteps(messages));
				const { total, ...parts } = breakdown;
				assert.equal(total, JSON.stringify(messages).length);
				assert.equal(Object.values(parts).reduce((a, b) => a + b, 0), total);
			}
			const after = runSteps(contextBreakdownSteps(expected));
			assert.ok(after.compressedChains > 0 && after.summaries > 0 && after.toolResults > 0 && after.user > 0);
		}
		assert.equal(runSteps(contextBreakdownSteps([])).total, 2);
	});

	it('counts thinking, text and tool calls of assistant messages separately', () => {
		const breakdown = runSteps(contextBreakdownSteps([{
			role: 'assistant', api: 'a', provider: 'p', model: 'm', stopReason: 'stop', timestamp: 1,
			usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
			content: [{ type: 'thinking', thinking: 'hmm' }, { type: 'text', text: 'hi' }, { type: 'toolCall', id: 'c', name: 'bash', arguments: {} }],
		}]));
		assert.equal(breakdown.thinking, JSON.stringify({ type: 'thinking', thinking: 'hmm' }).length);
		assert.equal(breakdown.assistantText, JSON.stringify({ type: 'text', text: 'hi' }).length);
		assert.equal(breakdown.toolCalls, JSON.stringify({ type: 'toolCall', id: 'c', name: 'bash', arguments: {} }).length);
	});
});

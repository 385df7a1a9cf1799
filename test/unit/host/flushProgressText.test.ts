import assert from 'node:assert/strict';
import { FlushProgressText } from '../../../src/host/flush/flushProgressText';

describe('flush progress lines', () => {
	it('reads like /pruner now\'s rows: pending, streamed characters, then a check mark or a warning', () => {
		const text = new FlushProgressText();
		const lines = [
			text.line({ type: 'batches', batches: [{ toolCallCount: 2, rawChars: 8400 }, { toolCallCount: 1, rawChars: 300 }] }),
			text.line({ type: 'batch-start', index: 0, total: 2 }),
			text.line({ type: 'batch-text', index: 0, total: 2, receivedChars: 1200 }),
			text.line({ type: 'batch-done', index: 0, total: 2, summaryChars: 1500 }),
			text.line({ type: 'batch-skipped', index: 1, total: 2, reason: 'trivial' }),
			text.line({ type: 'chains', count: 0 }),
			text.line({ type: 'chain-done', blockId: 'b3', fused: true }),
		];
		assert.deepEqual(lines.map((line) => line?.text), [
			'2 batches to summarize',
			'Batch 1/2 · 2 tool calls · pending',
			'Batch 1/2 · 1.2k summary chars / 8.4k raw chars',
			'✓ Batch 1/2 · 2 tool calls · 1.5k summary chars',
			'⚠ Batch 2/2 · 1 tool call · skipped (trivial)',
			undefined,
			'✓ b3 compressed (fused range summary)',
		]);
		assert.equal(lines[3]?.increment, 50);
	});
});

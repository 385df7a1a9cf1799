import assert from 'node:assert/strict';
import {
	readChainEntry, readDedupAlias, readFrontier, readStats, readSummaryDetails, readToolCallRecord,
} from '../../../../src/engine/condense/entryReaders';

describe('pi-condense entry readers', () => {
	it('reads a record and drops optional fields of the wrong type', () => {
		const read = readToolCallRecord({ toolCallId: 'a', toolName: 'bash', args: {}, resultText: '', isError: false, turnIndex: 2, timestamp: 5, spillPath: '/p', spillBytes: '12', resultPreview: 'head', contentHash: 7 });
		assert.deepEqual(read, { ok: true, value: { toolCallId: 'a', toolName: 'bash', args: {}, resultText: '', isError: false, turnIndex: 2, timestamp: 5, spillPath: '/p', resultPreview: 'head' } });
	});

	it('refuses records missing required fields', () => {
		for (const bad of [null, [], { toolCallId: '' }, { toolCallId: 'a', toolName: 'x', resultText: 'r', isError: 'no' }, { toolCallId: 'a', toolName: 'x', resultText: 'r', isError: false, args: [], turnIndex: 0, timestamp: 0 }]) {
			assert.equal(readToolCallRecord(bad).ok, false);
		}
	});

	it('fills a frontier\'s missing fields as pi-condense does', () => {
		assert.deepEqual(readFrontier({ lastAttemptedToolCallId: 'x', outcome: 'weird' }), { ok: true, value: {
			lastAttemptedToolCallId: 'x', lastAttemptedToolName: 'unknown', lastAttemptedTurnIndex: 0, lastAttemptedTimestamp: 0,
			attemptedBatchCount: 0, attemptedToolCallCount: 0, rawCharCount: 0, summaryCharCount: 0, outcome: 'summarized',
		} });
		assert.equal(readFrontier({}).ok, false);
	});

	it('reads chain entries with optional fields, and a missing final timestamp as null', () => {
		const read = readChainEntry({ blockId: 'b1', startUserTimestamp: 1, droppedToolCallIds: ['a'], compressedAt: 9, protectedToolCallIds: ['a'], rangeSummaryText: 'r' });
		assert.deepEqual(read, { ok: true, value: { blockId: 'b1', startUserTimestamp: 1, droppedToolCallIds: ['a'], finalAssistantTimestamp: null, toolRefs: [], compressedAt: 9, protectedToolCallIds: ['a'], rangeSummaryText: 'r' } });
		assert.equal(readChainEntry({ blockId: 'b1', startUserTimestamp: 1, droppedToolCallIds: [1], compressedAt: 9 }).ok, false);
	});

	it('reads summary details, counting malformed refs', () => {
		const read = readSummaryDetails({ toolCallRefs: [{ shortId: 't1', toolCallId: 'a' }, { shortId: 2 }], turnIndex: 'x' });
		assert.deepEqual(read, { ok: true, value: { toolCallRefs: [{ shortId: 't1', toolCallId: 'a' }], turnIndex: undefined, timestamp: undefined, invalidRefs: 1 } });
	});

	it('reads aliases and stats', () => {
		assert.deepEqual(readDedupAlias({ newToolCallId: 'n', originalToolCallId: 'o', hash: 'h' }), { ok: true, value: { newToolCallId: 'n', originalToolCallId: 'o', hash: 'h' } });
		assert.equal(readDedupAlias({ newToolCallId: 'n' }).ok, false);
		assert.deepEqual(readStats({ callCount: 2, totalCost: 'x' }), { ok: true, value: { totalInputTokens: 0, totalOutputTokens: 0, totalCost: 0, callCount: 2, chainsCompressed: 0, rangesSummarized: 0 } });
	});
});

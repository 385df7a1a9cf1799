/**
 * Regression (fuzz seeds 20261087, 20265978): a summary whose timestamp is a number no `Date` can
 * hold was handed to the label's time formatter, and `toISOString` threw.
 */
import assert from 'node:assert/strict';
import { summaryNodeLabel, type PrunedSummaryNode } from '../../../../src/engine/condense';

describe('summaryNodeLabel', () => {
	const node = (timestamp: number | undefined): PrunedSummaryNode => ({ entryId: 'e', header: '[pruner] Turn 1 summary', timestamp, turnIndex: 1, text: 's', children: [] });
	const iso = (ms: number): string => new Date(ms).toISOString();

	it('adds the time of a timestamp that is a date', () => {
		assert.equal(summaryNodeLabel(node(1796020564495), iso), '[pruner] Turn 1 summary · 2026-11-30T06:36:04.495Z');
	});

	it('leaves out a timestamp no Date can hold, or none', () => {
		for (const timestamp of [1e16, -9e15, 2 ** 53 + 2, undefined, 0]) {
			assert.equal(summaryNodeLabel(node(timestamp), iso), '[pruner] Turn 1 summary');
		}
	});
});

import assert from 'node:assert/strict';
import { revealTarget } from '../../../../src/host/preview/revealTarget';

describe('what the reveal command is given', () => {
	it('takes a string, trimmed', () => {
		assert.equal(revealTarget(' t12 '), 't12');
		assert.equal(revealTarget(''), undefined);
	});

	it('takes the id a tree element or link argument carries', () => {
		assert.equal(revealTarget({ sessionPath: '/s.jsonl', ref: 't3' }), 't3');
		assert.equal(revealTarget({ recoveryId: 'call_1', label: 'x' }), 'call_1');
		assert.equal(revealTarget({ blockId: 'b2' }), 'b2');
		assert.equal(revealTarget({ toolCallId: 'toolu_9', entryId: 'e1' }), 'toolu_9');
		assert.equal(revealTarget({ entryId: 'a1b2c3d4' }), 'a1b2c3d4');
	});

	it('refuses anything else', () => {
		assert.equal(revealTarget(undefined), undefined);
		assert.equal(revealTarget(42), undefined);
		assert.equal(revealTarget({ ref: 7 }), undefined);
		assert.equal(revealTarget({}), undefined);
	});
});

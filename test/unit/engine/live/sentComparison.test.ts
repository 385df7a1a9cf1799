/**
 * The check of what Pi sent against the preview's prediction: a match, each difference named by
 * message, and no comparison at all when the bridge could not see what was sent.
 */
import assert from 'node:assert/strict';
import type { MessageDigest, SentDigest } from '../../../../src/engine/live/liveTypes';
import { compareSent, comparisonSummary, LISTED_DIFFERENCES } from '../../../../src/engine/live/sentComparison';

const digest = (role: string, chars: number, hash: string): MessageDigest => ({ role, chars, hash: hash.padEnd(22, 'x') });
const sent = (messages: MessageDigest[], changedAfterBridge = 0): SentDigest => ({
	seq: 1, at: 0, sessionFile: '/s.jsonl', leafId: 'a1', model: undefined, messages, system: undefined, payload: undefined, changedAfterBridge,
});
const three = [digest('user', 10, 'a'), digest('assistant', 20, 'b'), digest('toolResult', 30, 'c')];

describe('compareSent', () => {
	it('matches when every message has the same digest', () => {
		const result = compareSent(sent(three), 'after-pi-condense', three);
		assert.deepEqual(result, { kind: 'match', messages: 3 });
		assert.equal(comparisonSummary(result), 'matches the last request (3 messages)');
	});

	it('names each message that differs, by size or by content', () => {
		const predicted = [three[0]!, digest('assistant', 25, 'B'), digest('toolResult', 30, 'C')];
		const result = compareSent(sent(three), 'no-pi-condense', predicted);
		assert.equal(result.kind, 'differs');
		assert.deepEqual(result.kind === 'differs' && result.differences, [
			'message 2 (assistant): Pi sent 20 characters, the preview has 25',
			'message 3 (toolResult): same size (30 characters), different content',
		]);
	});

	it('says which messages only one side has', () => {
		const result = compareSent(sent(three), 'after-pi-condense', three.slice(0, 1));
		assert.equal(result.kind, 'differs');
		assert.match(comparisonSummary(result), /Pi sent 3 message\(s\), the preview has 1: not predicted: 2 \(assistant\), 3 \(toolResult\)/);
		const fewer = compareSent(sent(three.slice(0, 2)), 'after-pi-condense', three);
		assert.match(comparisonSummary(fewer), /the preview has 3: not sent: 3 \(toolResult\)/);
	});

	it('lists a bounded number of differences and counts the rest', () => {
		const many = Array.from({ length: 40 }, (_, i) => digest('user', i, `m${i}`));
		const other = many.map((m) => ({ ...m, hash: `${m.hash.slice(0, 21)}y` }));
		const result = compareSent(sent(many), 'after-pi-condense', other);
		assert.equal(result.kind, 'differs');
		const differences = result.kind === 'differs' ? result.differences : [];
		assert.equal(differences.length, LISTED_DIFFERENCES + 1);
		assert.equal(differences.at(-1), `and ${40 - LISTED_DIFFERENCES} more difference(s)`);
	});

	it('does not compare what the bridge could not see', () => {
		const before = compareSent(sent(three), 'before-pi-condense', []);
		assert.equal(before.kind, 'not-comparable');
		assert.match(comparisonSummary(before), /loads before pi-condense/);
		const changed = compareSent(sent(three, 2), 'after-pi-condense', three);
		assert.equal(changed.kind, 'not-comparable');
		assert.match(comparisonSummary(changed), /changed 2 message/);
	});
});

/**
 * Exact sums (`exactSum.ts`): the history's dollar figures are the same however they are grouped or
 * ordered, and a figure added then taken away leaves no trace.
 */
import assert from 'node:assert/strict';
import { ExactSum, exactSum } from '../../../../src/engine/costs/exactSum';
import { Random } from '../../../support/random';

describe('exact sums', () => {
	it('rounds the exact sum once, where a float sum left to right does not', () => {
		assert.equal(exactSum([0.1, 0.2, 0.3]), 0.6);
		assert.equal(0.1 + 0.2 + 0.3, 0.6000000000000001);
		assert.equal(exactSum([1e100, 1, -1e100]), 1);
		assert.equal(exactSum([1, 1e-16, 1e-16]), 1.0000000000000002);
		// Half way between two floats, with a little more below: rounds up, not to even.
		assert.equal(exactSum([1, 2 ** -53, 2 ** -106]), 1 + 2 ** -52);
		assert.equal(exactSum([1, 2 ** -53]), 1);
	});

	it('is the same in any order and grouping, and forgets what was taken out', () => {
		const rng = new Random(39);
		const random = (): number => rng.next();
		const values = Array.from({ length: 2000 }, () => Math.round(random() * 1e9) / 1e9 * 10 ** Math.floor(random() * 6 - 4));
		const whole = exactSum(values);
		const shuffled = [...values].sort(() => random() - 0.5);
		assert.equal(exactSum(shuffled), whole);
		const grouped = new ExactSum();
		for (let start = 0; start < values.length; start += 37) {
			grouped.addParts(new ExactSum().addParts(values.slice(start, start + 37)).partials());
		}
		assert.equal(grouped.value(), whole);
		const extra = new ExactSum().addParts(values).add(0.123456789).add(-0.123456789);
		assert.equal(extra.value(), whole);
		assert.notEqual(values.reduce((sum, value) => sum + value, 0), shuffled.reduce((sum, value) => sum + value, 0), 'float sums differ with the order (the case this covers)');
	});
});

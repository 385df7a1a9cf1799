/**
 * One mocha test per adversarial input of an area: on 1 MB the production code takes at most 20x the
 * time a linear function would, given its time on 10 KB (a quadratic one takes about 100x). The
 * tighter bound (3x) is `npm run stress adversarial`'s, on a quiet machine.
 */
import assert from 'node:assert/strict';
import { ADVERSARIAL_CASES, type AdversarialArea } from './adversarialInputs';
import { describeLinearity, measureLinearity } from './linearity';

/**
 * Generous for a machine shared with other work (5x failed at load 10: a GC pause in the 1 MB run
 * is enough); quadratic code is still five times above it.
 */
const UNIT_TEST_LIMIT = 20;

export function describeLinearTime(title: string, area: AdversarialArea): void {
	describe(title, function () {
		this.timeout(300_000);
		for (const subject of ADVERSARIAL_CASES.filter((c) => c.area === area)) {
			it(`${subject.name}: 1 MB within ${UNIT_TEST_LIMIT}x the linear time of 10 KB`, () => {
				const result = measureLinearity(subject, { limit: UNIT_TEST_LIMIT });
				assert.ok(result.ratio <= UNIT_TEST_LIMIT && result.stoppedAt === undefined, describeLinearity(result));
			});
		}
	});
}

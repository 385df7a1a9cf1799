/**
 * `isoTime` (src/base/isoTime.ts) reads every timestamp as `Date.parse` does: the form Pi writes,
 * its edges (leap days, a day past the month's end, 24:00, years before 1970 and below 100) and
 * texts one character off it, valid or not.
 */
import assert from 'node:assert/strict';
import { isoTime } from '../../../../src/base/isoTime';
import { Random } from '../../../support/random';

const same = (text: string): void => assert.ok(Object.is(isoTime(text), Date.parse(text)), `${JSON.stringify(text)}: ${isoTime(text)} against ${Date.parse(text)}`);

describe('isoTime', () => {
	it('reads the edges of the form as Date.parse does', () => {
		for (const text of [
			'2026-01-02T03:04:05.678Z', '1970-01-01T00:00:00.000Z', '2024-02-29T23:59:59.999Z', '2026-02-29T00:00:00.000Z', '2026-02-30T00:00:00.000Z',
			'2026-04-31T12:00:00.000Z', '2026-01-01T24:00:00.000Z', '2026-01-01T23:60:00.000Z', '2026-01-01T23:59:60.000Z', '2026-13-01T00:00:00.000Z',
			'2026-00-10T00:00:00.000Z', '2026-01-00T00:00:00.000Z', '1969-12-31T23:59:59.999Z', '0050-06-01T00:00:00.000Z', '0000-01-01T00:00:00.000Z',
			'9999-12-28T23:59:59.999Z', '2026-01-02T03:04:05.678+', '2026-01-02 03:04:05.678Z', '2026-1-02T03:04:05.6789Z', '+2026-01-02T03:04:05.678Z',
			'2026-01-02T03:04:05.67aZ', '2026-01-02T03:04:05.678z', '２０２６-01-02T03:04:05.678Z', '', 'yesterday', '2026-01-02',
		]) {
			same(text);
		}
	});

	it('agrees with Date.parse on random timestamps and on texts one character off the form', () => {
		const random = new Random(4242);
		const characters = '0123456789-:.TZ+ xé/';
		for (let i = 0; i < 20_000; i++) {
			const at = random.int(-5e12, 5e13);
			let text = new Date(at).toISOString();
			if (random.chance(0.5)) {
				const where = random.int(0, text.length - 1);
				text = `${text.slice(0, where)}${random.pick([...characters])}${text.slice(where + 1)}`;
			}
			same(text);
		}
	});
});

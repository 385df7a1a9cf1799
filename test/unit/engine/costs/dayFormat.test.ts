/**
 * The history's days (`dayFormat.ts`) are `Intl`'s in every zone, across changes of offset, in zones
 * whose offset is not a whole hour, and at each quarter hour of a day.
 */
import assert from 'node:assert/strict';
import { DayFormat } from '../../../../src/engine/costs/dayFormat';
import { QUARTER_HOUR_MS } from '../../../../src/engine/costs/usageBuckets';

const ZONES = ['UTC', 'Asia/Kathmandu', 'America/St_Johns', 'Australia/Lord_Howe', 'Europe/London', 'America/New_York', 'Pacific/Chatham', 'Asia/Kolkata', 'Pacific/Kiritimati', 'Pacific/Apia'];

describe('history days', () => {
	for (const timeZone of ZONES) {
		it(`are Intl's in ${timeZone}`, () => {
			const days = new DayFormat(timeZone);
			const intl = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
			// Two years around changes of offset, every fifth quarter hour (so every quarter of the day is met).
			const first = Math.floor(Date.parse('2010-12-20T00:00:00Z') / QUARTER_HOUR_MS);
			for (let quarter = first; quarter < first + 2 * 366 * 96; quarter += 5) {
				assert.equal(days.dayOfQuarter(quarter), intl.format(quarter * QUARTER_HOUR_MS), `${timeZone} ${new Date(quarter * QUARTER_HOUR_MS).toISOString()}`);
			}
		});
	}
});

/**
 * How long ago a moment was, in words ("5 minutes ago", "yesterday", "2 months ago"), for the
 * session list and the preview page alike: `Intl.RelativeTimeFormat` in English, the largest unit
 * that fits. No Node, no DOM.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

/** Each unit from the age where it starts being used, largest first. */
const UNITS: readonly (readonly [Intl.RelativeTimeFormatUnit, number, number])[] = [
	['year', YEAR, YEAR],
	['month', MONTH, MONTH],
	['day', DAY, DAY],
	['hour', HOUR, HOUR],
	['minute', 45 * SECOND, MINUTE],
];

const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'long' });

/** `epochMs` said from `now`: "now" under 45 seconds (and for a moment in the future). */
export function relativeTime(epochMs: number, now: number): string {
	const age = now - epochMs;
	for (const [unit, from, size] of UNITS) {
		if (age >= from) {
			return format.format(-Math.max(1, Math.round(age / size)), unit);
		}
	}
	return format.format(0, 'second');
}

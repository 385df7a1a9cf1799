/**
 * How long ago a moment was, in words ("5 minutes ago", "yesterday", "2 months ago") for tooltips,
 * screen readers and the preview page, or in a few letters ("5m", "1d", "2mo") where a row has no
 * room: the largest unit that fits, the same in both. No Node, no DOM.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

/** Each unit from the age where it starts being used, largest first, with its letters. */
const UNITS: readonly (readonly [Intl.RelativeTimeFormatUnit, number, number, string])[] = [
	['year', YEAR, YEAR, 'y'],
	['month', MONTH, MONTH, 'mo'],
	['day', DAY, DAY, 'd'],
	['hour', HOUR, HOUR, 'h'],
	['minute', 45 * SECOND, MINUTE, 'm'],
];

const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'long' });

/** The largest unit that fits an age, and how many of it (at least 1); undefined under 45 seconds or for the future. */
function ageIn(age: number): { readonly unit: Intl.RelativeTimeFormatUnit; readonly count: number; readonly letters: string } | undefined {
	const found = UNITS.find(([, from]) => age >= from);
	return found && { unit: found[0], count: Math.max(1, Math.round(age / found[2])), letters: found[3] };
}

/** `epochMs` said from `now`: "now" under 45 seconds (and for a moment in the future). */
export function relativeTime(epochMs: number, now: number): string {
	const age = ageIn(now - epochMs);
	return age ? format.format(-age.count, age.unit) : format.format(0, 'second');
}

/** `epochMs` from `now` in a few letters (`now`, `5m`, `3h`, `1d`, `2mo`, `1y`): the unit `relativeTime` says in words. */
export function compactAge(epochMs: number, now: number): string {
	const age = ageIn(now - epochMs);
	return age ? `${age.count}${age.letters}` : 'now';
}

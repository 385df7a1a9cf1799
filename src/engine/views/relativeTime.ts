/**
 * Short relative times for list rows ("5 min ago", "3 h ago"). Pure.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function relativeTime(epochMs: number, now: number): string {
	const age = now - epochMs;
	if (age < 45_000) {
		return 'just now';
	}
	if (age < HOUR) {
		return `${Math.max(1, Math.round(age / MINUTE))} min ago`;
	}
	if (age < DAY) {
		return `${Math.round(age / HOUR)} h ago`;
	}
	if (age < 30 * DAY) {
		const days = Math.round(age / DAY);
		return days === 1 ? 'yesterday' : `${days} days ago`;
	}
	return new Date(epochMs).toISOString().slice(0, 10);
}

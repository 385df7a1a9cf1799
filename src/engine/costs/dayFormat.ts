/**
 * Calendar days and ISO weeks in one time zone, for the history's groups (`history.ts`). Pure.
 */
import { QUARTER_HOUR_MS } from './usageBuckets';

const DAY_MS = 86_400_000;
const QUARTERS_PER_DAY = DAY_MS / QUARTER_HOUR_MS;

/**
 * Calendar days in one time zone, as `YYYY-MM-DD`. `Intl` is slow (a history has thousands of quarter
 * hours), so the zone's offset is found twice per UTC day, at its start and its end: when they agree
 * (every day but those of a change of offset) the day of each quarter hour follows from the offset;
 * otherwise each quarter hour of that UTC day is formatted by `Intl`.
 */
export class DayFormat {
	private readonly format: Intl.DateTimeFormat;
	private readonly clock: Intl.DateTimeFormat;
	private readonly days = new Map<number, string>();
	/** Per UTC day: the zone's offset through the whole day (ms), or undefined when it changes in it. */
	private readonly offsets = new Map<number, number | undefined>();
	private readonly mondays = new Map<string, string>();
	private static readonly zones = new Map<string, DayFormat>();

	/** One per zone for the process: `Intl`'s formatters are slow to make, and a report is made again on each change (the Pi Costs view's). */
	static of(timeZone: string): DayFormat {
		let format = DayFormat.zones.get(timeZone);
		if (format === undefined) {
			format = new DayFormat(timeZone);
			DayFormat.zones.set(timeZone, format);
		}
		return format;
	}

	constructor(timeZone: string) {
		this.format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
		this.clock = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
	}
	/** The day of quarter hour `quarter` (`quarterOf`; every zone's days change only on their boundaries). */
	dayOfQuarter(quarter: number): string {
		if (!Number.isFinite(quarter)) {
			return 'unknown';
		}
		let day = this.days.get(quarter);
		if (day === undefined) {
			const offset = this.offsetThrough(Math.floor(quarter / QUARTERS_PER_DAY));
			day = offset === undefined ? this.format.format(quarter * QUARTER_HOUR_MS) : new Date(quarter * QUARTER_HOUR_MS + offset).toISOString().slice(0, 10);
			this.days.set(quarter, day);
		}
		return day;
	}
	private offsetThrough(utcDay: number): number | undefined {
		if (this.offsets.has(utcDay)) {
			return this.offsets.get(utcDay);
		}
		const start = this.offsetAt(utcDay * DAY_MS);
		const end = this.offsetAt((utcDay + 1) * DAY_MS - QUARTER_HOUR_MS);
		// A whole number of quarter hours, the same at both ends; a year outside 100-9999 is left to `Intl`.
		const year = new Date(utcDay * DAY_MS).getUTCFullYear();
		const offset = start === end && start % QUARTER_HOUR_MS === 0 && year >= 100 && year < 9999 ? start : undefined;
		this.offsets.set(utcDay, offset);
		return offset;
	}
	/** Local wall time minus UTC at `at`, in ms. */
	private offsetAt(at: number): number {
		const parts: Record<string, number> = {};
		for (const part of this.clock.formatToParts(at)) {
			if (part.type !== 'literal') {
				parts[part.type] = Number(part.value);
			}
		}
		const wall = Date.UTC(parts['year'] ?? 0, (parts['month'] ?? 1) - 1, parts['day'] ?? 1, parts['hour'] ?? 0, parts['minute'] ?? 0, parts['second'] ?? 0);
		return wall - at;
	}
	/** The Monday of the ISO week that holds `day`. */
	mondayOf(day: string): string {
		let monday = this.mondays.get(day);
		if (monday === undefined) {
			monday = this.mondayOfDay(day);
			this.mondays.set(day, monday);
		}
		return monday;
	}
	private mondayOfDay(day: string): string {
		const at = Date.parse(`${day}T00:00:00Z`);
		if (!Number.isFinite(at)) {
			return 'unknown';
		}
		const sinceMonday = (new Date(at).getUTCDay() + 6) % 7;
		return new Date(at - sinceMonday * 86_400_000).toISOString().slice(0, 10);
	}
}

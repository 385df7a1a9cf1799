/**
 * Calendar days and ISO weeks in one time zone, for the history's groups (`history.ts`). Pure.
 */
import { QUARTER_HOUR_MS } from './usageBuckets';

/** Calendar days in one time zone, as `YYYY-MM-DD`; formatted once per quarter hour and per day (`Intl` is slow). */
export class DayFormat {
	private readonly format: Intl.DateTimeFormat;
	private readonly days = new Map<number, string>();
	private readonly mondays = new Map<string, string>();
	constructor(timeZone: string) {
		this.format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
	}
	/** The day of quarter hour `quarter` (`quarterOf`; every zone's days change only on their boundaries). */
	dayOfQuarter(quarter: number): string {
		if (!Number.isFinite(quarter)) {
			return 'unknown';
		}
		let day = this.days.get(quarter);
		if (day === undefined) {
			day = this.format.format(quarter * QUARTER_HOUR_MS);
			this.days.set(quarter, day);
		}
		return day;
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

/**
 * Costs across sessions, as pure functions over rows (one per request, one per session): what the
 * persistent index will hand them, and what `pi-condense costs --all` builds from the files today.
 *
 * Each request is counted once. Pi's `/fork` and branch copies replay the parent's entries in the
 * child file with the same ids, timestamps and usage, so a request seen in several files is one
 * request: rows are the same request when their entry id, entry timestamp, provider, model and every
 * usage figure agree (`requestKey`). It belongs to the session that was started first (its header's
 * timestamp, then its path): the one that made it. A session's own figures in the history are
 * therefore what it added; `pi-condense costs <session>` shows everything its file holds. Pure.
 */
import type { Range } from './pruneAccount';
import { type RequestCost, type RequestKind, type RequestTokens, type UsageSums } from './requestTypes';

export interface RequestRow {
	/** The session file (unique per session). */
	readonly session: string;
	readonly entryId: string;
	readonly entryTimestamp: string;
	/** Where the usage was recorded (`reply`: an assistant message). */
	readonly kind: RequestKind;
	readonly provider: string;
	readonly model: string;
	readonly tokens: RequestTokens;
	readonly cost: RequestCost;
}

/** A cache rebuild or a prune, keyed so that a fork's copy of it is recognised. */
export interface CostEventRow {
	/** The request it belongs to (`requestKey`) or, for a prune, its first entry's id and time. */
	readonly key: string;
	/** Epoch ms. */
	readonly at: number;
	readonly usd: Range;
}

export interface SessionRow {
	readonly session: string;
	readonly id: string;
	/** The header's `cwd`. */
	readonly project: string;
	/** Epoch ms of the header. */
	readonly startedAt: number;
	readonly parentSession?: string;
	readonly title?: string;
	readonly rebuilds: readonly CostEventRow[];
	/** Each prune's net effect (savings − costs). */
	readonly prunes: readonly CostEventRow[];
	readonly settings?: ObservedSettings;
}

/** The pi-condense settings a session ran with, as far as anyone knows them. */
export interface ObservedSettings {
	/** What started its flushes: `budget`, `delta`, `message-end`, `manual`. */
	readonly trigger?: string;
	readonly batching?: 'turn' | 'agent-message';
	readonly chainWindow?: number;
}

/** What identifies a request across files: entry id, timestamp, model and every usage figure. */
export function requestKey(row: Omit<RequestRow, 'session' | 'kind'>): string {
	const { tokens, cost } = row;
	return [
		row.entryId, row.entryTimestamp, row.provider, row.model,
		tokens.input, tokens.output, tokens.cacheRead, tokens.cacheWrite, tokens.cacheWrite1h ?? '', tokens.totalTokens,
		cost.input, cost.output, cost.cacheRead, cost.cacheWrite, cost.total,
	].join('\u0000');
}

/** Sessions in the order that decides who owns a shared request: started first, then by path. */
function ownerOrder(sessions: readonly SessionRow[]): Map<string, number> {
	const ordered = [...sessions].sort((a, b) => a.startedAt - b.startedAt || (a.session < b.session ? -1 : a.session > b.session ? 1 : 0));
	return new Map(ordered.map((session, rank) => [session.session, rank]));
}

/**
 * Each request once, in the session that made it. Only rows whose entry id occurs more than once can
 * be copies, so only they are keyed by every figure (a history holds hundreds of thousands of rows).
 */
export function distinctRequests(rows: readonly RequestRow[], sessions: readonly SessionRow[]): RequestRow[] {
	const seenIds = new Map<string, number>();
	for (const row of rows) {
		seenIds.set(row.entryId, (seenIds.get(row.entryId) ?? 0) + 1);
	}
	const rank = ownerOrder(sessions);
	const kept = new Map<string, RequestRow>();
	const rankOf = (row: RequestRow): number => rank.get(row.session) ?? Number.MAX_SAFE_INTEGER;
	for (const row of rows) {
		if ((seenIds.get(row.entryId) ?? 0) < 2) {
			continue;
		}
		const key = requestKey(row);
		const seen = kept.get(key);
		if (seen === undefined || rankOf(row) < rankOf(seen)) {
			kept.set(key, row);
		}
	}
	// In the rows' order, so that sums are taken in the same order whatever was copied.
	const owners = new Set(kept.values());
	return rows.filter((row) => (seenIds.get(row.entryId) ?? 0) < 2 || owners.has(row));
}

/** Each rebuild or prune once (a fork's copy of its parent's is the parent's). */
function distinctEvents(sessions: readonly SessionRow[], pick: (session: SessionRow) => readonly CostEventRow[]): Map<string, { readonly event: CostEventRow; readonly session: SessionRow }> {
	const rank = ownerOrder(sessions);
	const kept = new Map<string, { event: CostEventRow; session: SessionRow }>();
	for (const session of sessions) {
		for (const event of pick(session)) {
			const seen = kept.get(event.key);
			if (seen === undefined || (rank.get(session.session) ?? 0) < (rank.get(seen.session.session) ?? 0)) {
				kept.set(event.key, { event, session });
			}
		}
	}
	return kept;
}

export interface HistoryGroup {
	/** The session path, the day (`2026-01-31`), the month (`2026-01`), or `project · week`. */
	readonly key: string;
	readonly project?: string;
	/** Monday of the week (`2026-01-26`). */
	readonly week?: string;
	readonly sums: UsageSums;
	readonly rebuilds: { readonly count: number; readonly cost: Range };
	readonly pruning: { readonly prunes: number; readonly net: Range };
}

export interface HistoryReport {
	readonly sessions: number;
	readonly totals: UsageSums;
	readonly rebuilds: { readonly count: number; readonly cost: Range };
	readonly pruning: { readonly prunes: number; readonly net: Range };
	readonly bySession: readonly HistoryGroup[];
	readonly byDay: readonly HistoryGroup[];
	readonly byMonth: readonly HistoryGroup[];
	readonly byProjectWeek: readonly HistoryGroup[];
	/** The sessions that spent most, most first. */
	readonly mostExpensive: readonly HistoryGroup[];
	readonly settings: readonly SettingsComparison[];
}

export interface HistoryOptions {
	/** IANA zone days, weeks and months are counted in (default UTC). */
	readonly timeZone?: string;
	/** How many sessions `mostExpensive` lists (default 10). */
	readonly top?: number;
}

const ZERO: Range = { low: 0, mid: 0, high: 0 };
const plus = (a: Range, b: Range): Range => ({ low: a.low + b.low, mid: a.mid + b.mid, high: a.high + b.high });

/** Sums added to in place: a history adds each of hundreds of thousands of requests to four groups. */
class SumsBuilder {
	requests = 0;
	input = 0;
	output = 0;
	cacheRead = 0;
	cacheWrite = 0;
	cost = 0;
	costInput = 0;
	costOutput = 0;
	costCacheRead = 0;
	costCacheWrite = 0;
	add(row: Pick<RequestRow, 'tokens' | 'cost'>): void {
		this.requests++;
		this.input += row.tokens.input;
		this.output += row.tokens.output;
		this.cacheRead += row.tokens.cacheRead;
		this.cacheWrite += row.tokens.cacheWrite;
		this.cost += row.cost.total;
		this.costInput += row.cost.input;
		this.costOutput += row.cost.output;
		this.costCacheRead += row.cost.cacheRead;
		this.costCacheWrite += row.cost.cacheWrite;
	}
	done(): UsageSums {
		const { requests, input, output, cacheRead, cacheWrite, cost, costInput, costOutput, costCacheRead, costCacheWrite } = this;
		return { requests, input, output, cacheRead, cacheWrite, cost, costInput, costOutput, costCacheRead, costCacheWrite };
	}
}

class GroupBuilder {
	readonly sums = new SumsBuilder();
	rebuilds = { count: 0, cost: ZERO };
	pruning = { prunes: 0, net: ZERO };
	constructor(readonly key: string, readonly project?: string, readonly week?: string) {}
	done(): HistoryGroup {
		return { key: this.key, ...(this.project === undefined ? {} : { project: this.project }), ...(this.week === undefined ? {} : { week: this.week }), sums: this.sums.done(), rebuilds: this.rebuilds, pruning: this.pruning };
	}
}

export function historyReport(rows: readonly RequestRow[], sessions: readonly SessionRow[], options: HistoryOptions = {}): HistoryReport {
	const days = new DayFormat(options.timeZone ?? 'UTC');
	const bySession = new Map(sessions.map((session) => [session.session, session]));
	const groups = { session: new Map<string, GroupBuilder>(), day: new Map<string, GroupBuilder>(), month: new Map<string, GroupBuilder>(), week: new Map<string, GroupBuilder>() };
	const groupOf = (kind: keyof typeof groups, key: string, project?: string, week?: string): GroupBuilder => {
		let group = groups[kind].get(key);
		if (group === undefined) {
			group = new GroupBuilder(key, project, week);
			groups[kind].set(key, group);
		}
		return group;
	};
	const placesOf = (sessionPath: string, at: number): GroupBuilder[] => {
		const day = days.dayOf(at);
		const project = bySession.get(sessionPath)?.project ?? '';
		const week = days.mondayOf(day);
		return [groupOf('session', sessionPath), groupOf('day', day), groupOf('month', day.slice(0, 7)), groupOf('week', `${project}\u0000${week}`, project, week)];
	};
	const totals = new SumsBuilder();
	for (const row of distinctRequests(rows, sessions)) {
		totals.add(row);
		for (const group of placesOf(row.session, Date.parse(row.entryTimestamp))) {
			group.sums.add(row);
		}
	}
	let rebuilds = { count: 0, cost: ZERO };
	for (const { event, session } of distinctEvents(sessions, (s) => s.rebuilds).values()) {
		rebuilds = { count: rebuilds.count + 1, cost: plus(rebuilds.cost, event.usd) };
		for (const group of placesOf(session.session, event.at)) {
			group.rebuilds = { count: group.rebuilds.count + 1, cost: plus(group.rebuilds.cost, event.usd) };
		}
	}
	let pruning = { prunes: 0, net: ZERO };
	for (const { event, session } of distinctEvents(sessions, (s) => s.prunes).values()) {
		pruning = { prunes: pruning.prunes + 1, net: plus(pruning.net, event.usd) };
		for (const group of placesOf(session.session, event.at)) {
			group.pruning = { prunes: group.pruning.prunes + 1, net: plus(group.pruning.net, event.usd) };
		}
	}
	const list = (kind: keyof typeof groups): HistoryGroup[] => [...groups[kind].values()].map((group) => group.done()).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
	const sessionGroups = list('session');
	return {
		sessions: sessions.length,
		totals: totals.done(),
		rebuilds,
		pruning,
		bySession: sessionGroups,
		byDay: list('day'),
		byMonth: list('month'),
		byProjectWeek: list('week'),
		mostExpensive: [...sessionGroups].sort((a, b) => b.sums.cost - a.sums.cost).slice(0, options.top ?? 10),
		settings: compareSettings(sessions),
	};
}

/** A quarter of an hour: every time zone's offset is a multiple of it, so a day changes only on its boundaries. */
const QUARTER_HOUR_MS = 15 * 60_000;

/** Calendar days in one time zone, as `YYYY-MM-DD`; formatted once per quarter hour and per day (`Intl` is slow). */
class DayFormat {
	private readonly format: Intl.DateTimeFormat;
	private readonly days = new Map<number, string>();
	private readonly mondays = new Map<string, string>();
	constructor(timeZone: string) {
		this.format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
	}
	dayOf(at: number): string {
		if (!Number.isFinite(at)) {
			return 'unknown';
		}
		const quarter = Math.floor(at / QUARTER_HOUR_MS);
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

export type SettingName = keyof ObservedSettings;

export interface SettingsComparison {
	readonly setting: SettingName;
	readonly groups: readonly { readonly value: string; readonly sessions: number; readonly prunes: number; readonly netPerPrune: Range; readonly net: Range }[];
	readonly verdict:
		| { readonly kind: 'best'; readonly value: string }
		| { readonly kind: 'no-clear-difference' }
		| { readonly kind: 'too-little-data'; readonly reason: string };
}

/** Sessions a value needs (each with at least one prune) before it is compared. */
export const MIN_SESSIONS_PER_SETTING = 3;

/**
 * Which value of each setting paid back best in this history: sessions grouped by the value they ran
 * with, each group's net effect per prune compared. A value wins only when its whole range lies above
 * every other value's range; too few sessions, or a single value, is said as such.
 */
export function compareSettings(sessions: readonly SessionRow[]): SettingsComparison[] {
	const names: readonly SettingName[] = ['trigger', 'batching', 'chainWindow'];
	return names.map((setting) => {
		const byValue = new Map<string, { sessions: number; prunes: number; net: Range }>();
		for (const session of sessions) {
			const value = session.settings?.[setting];
			if (value === undefined || session.prunes.length === 0) {
				continue;
			}
			const group = byValue.get(String(value)) ?? { sessions: 0, prunes: 0, net: ZERO };
			byValue.set(String(value), { sessions: group.sessions + 1, prunes: group.prunes + session.prunes.length, net: session.prunes.reduce((sum, prune) => plus(sum, prune.usd), group.net) });
		}
		const groups = [...byValue].map(([value, group]) => ({
			value, ...group, netPerPrune: { low: group.net.low / group.prunes, mid: group.net.mid / group.prunes, high: group.net.high / group.prunes },
		})).sort((a, b) => b.netPerPrune.mid - a.netPerPrune.mid);
		return { setting, groups, verdict: settingVerdict(groups) };
	});
}

function settingVerdict(groups: readonly { readonly value: string; readonly sessions: number; readonly netPerPrune: Range }[]): SettingsComparison['verdict'] {
	if (groups.length < 2) {
		return { kind: 'too-little-data', reason: groups.length === 0 ? 'no pruned session says which value it ran with' : `every pruned session ran with ${groups[0]?.value ?? ''}` };
	}
	const thin = groups.filter((group) => group.sessions < MIN_SESSIONS_PER_SETTING);
	if (thin.length > 0) {
		return { kind: 'too-little-data', reason: `fewer than ${MIN_SESSIONS_PER_SETTING} pruned sessions ran with ${thin.map((group) => group.value).join(', ')}` };
	}
	const [best, ...others] = groups as [typeof groups[number], ...typeof groups];
	return others.every((other) => best.netPerPrune.low > other.netPerPrune.high) ? { kind: 'best', value: best.value } : { kind: 'no-clear-difference' };
}

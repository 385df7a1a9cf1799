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
import { DayFormat } from './dayFormat';
import { ExactSum, RangeSum } from './exactSum';
import { compareSettings, type ObservedSettings, type SettingsComparison } from './historySettings';

import type { Range } from './pruneAccount';
import { type RequestCost, type RequestKind, type RequestTokens, type UsageSums } from './requestTypes';
import { BucketsBuilder, quarterOf, UsageAccumulator, type UsageBucket } from './usageBuckets';

export type { ObservedSettings } from './historySettings';

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

/**
 * One session's part of the history, however it was read: its requests (each counted once: a fork's
 * copies of its parent's taken out) per quarter hour, its rebuilds and prunes that may be copies
 * (keyed, in `row`), and the rebuilds known to be its own (no other session holds their request).
 */
export interface HistoryPart {
	readonly row: SessionRow;
	readonly buckets: readonly UsageBucket[];
	readonly ownRebuilds: readonly { readonly at: number; readonly usd: number }[];
}

class GroupBuilder {
	readonly sums = new UsageAccumulator();
	readonly rebuilds = new RangeSum();
	readonly pruning = new RangeSum();
	constructor(readonly key: string, readonly project?: string, readonly week?: string) {}
	done(): HistoryGroup {
		return {
			key: this.key, ...(this.project === undefined ? {} : { project: this.project }), ...(this.week === undefined ? {} : { week: this.week }),
			sums: this.sums.done(), rebuilds: { count: this.rebuilds.count, cost: this.rebuilds.range() }, pruning: { prunes: this.pruning.count, net: this.pruning.range() },
		};
	}
}

/** The report from one row per request (each file read): its distinct requests gathered per session and quarter hour. */
export function historyReport(rows: readonly RequestRow[], sessions: readonly SessionRow[], options: HistoryOptions = {}): HistoryReport {
	const buckets = new Map<string, BucketsBuilder>();
	for (const row of distinctRequests(rows, sessions)) {
		let builder = buckets.get(row.session);
		if (builder === undefined) {
			builder = new BucketsBuilder();
			buckets.set(row.session, builder);
		}
		builder.add(Date.parse(row.entryTimestamp), row);
	}
	return historyReportOf(sessions.map((row) => ({ row, buckets: buckets.get(row.session)?.done() ?? [], ownRebuilds: [] })), options);
}

/** The report from each session's part. Every sum is exact: the same figures whatever the parts' grouping. */
export function historyReportOf(parts: readonly HistoryPart[], options: HistoryOptions = {}): HistoryReport {
	const days = DayFormat.of(options.timeZone ?? 'UTC');
	const groups = { session: new Map<string, GroupBuilder>(), day: new Map<string, GroupBuilder>(), month: new Map<string, GroupBuilder>(), week: new Map<string, GroupBuilder>() };
	const groupOf = (kind: keyof typeof groups, key: string, project?: string, week?: string): GroupBuilder => {
		let group = groups[kind].get(key);
		if (group === undefined) {
			group = new GroupBuilder(key, project, week);
			groups[kind].set(key, group);
		}
		return group;
	};
	const placesOf = (session: SessionRow, quarter: number): GroupBuilder[] => {
		const day = days.dayOfQuarter(quarter);
		const week = days.mondayOf(day);
		return [groupOf('session', session.session), groupOf('day', day), groupOf('month', day.slice(0, 7)), groupOf('week', `${session.project}\u0000${week}`, session.project, week)];
	};
	// Each bucket is added to its session and to its project's day; the days, weeks, months and totals
	// are summed from those (exact sums: the same figures, a fraction of the additions).
	const projectDays = new Map<string, { project: string; day: string; sums: UsageAccumulator }>();
	for (const part of parts) {
		// A session whose every request is another's copy has no group of its own.
		const session = part.buckets.length === 0 ? undefined : groupOf('session', part.row.session).sums;
		for (const bucket of part.buckets) {
			session?.addBucket(bucket);
			const day = days.dayOfQuarter(bucket.quarter);
			const key = `${part.row.project}\u0000${day}`;
			let projectDay = projectDays.get(key);
			if (projectDay === undefined) {
				projectDay = { project: part.row.project, day, sums: new UsageAccumulator() };
				projectDays.set(key, projectDay);
			}
			projectDay.sums.addBucket(bucket);
		}
	}
	for (const { project, day, sums } of projectDays.values()) {
		const week = days.mondayOf(day);
		groupOf('day', day).sums.addSums(sums);
		groupOf('week', `${project}\u0000${week}`, project, week).sums.addSums(sums);
	}
	const totals = new UsageAccumulator();
	for (const [day, group] of groups.day) {
		groupOf('month', day.slice(0, 7)).sums.addSums(group.sums);
	}
	for (const group of groups.month.values()) {
		totals.addSums(group.sums);
	}
	const rows = parts.map((part) => part.row);
	const rebuilds = new RangeSum();
	const addRebuild = (session: SessionRow, at: number, usd: Range): void => {
		rebuilds.add(usd);
		for (const group of placesOf(session, quarterOf(at))) {
			group.rebuilds.add(usd);
		}
	};
	for (const { event, session } of distinctEvents(rows, (s) => s.rebuilds).values()) {
		addRebuild(session, event.at, event.usd);
	}
	for (const part of parts) {
		// Summed per quarter hour first: a session pays hundreds of rebuilds, a quarter hour holds a few.
		const quarters = new Map<number, { count: number; usd: ExactSum }>();
		for (const own of part.ownRebuilds) {
			const quarter = quarterOf(own.at);
			const sum = quarters.get(quarter) ?? { count: 0, usd: new ExactSum() };
			sum.count++;
			sum.usd.add(own.usd);
			quarters.set(quarter, sum);
		}
		for (const [quarter, { count, usd }] of quarters) {
			const partials = usd.partials();
			rebuilds.addSingles(count, partials);
			for (const group of placesOf(part.row, quarter)) {
				group.rebuilds.addSingles(count, partials);
			}
		}
	}
	const pruning = new RangeSum();
	for (const { event, session } of distinctEvents(rows, (s) => s.prunes).values()) {
		pruning.add(event.usd);
		for (const group of placesOf(session, quarterOf(event.at))) {
			group.pruning.add(event.usd);
		}
	}
	const list = (kind: keyof typeof groups): HistoryGroup[] => [...groups[kind].values()].map((group) => group.done()).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
	const sessionGroups = list('session');
	return {
		sessions: parts.length,
		totals: totals.done(),
		rebuilds: { count: rebuilds.count, cost: rebuilds.range() },
		pruning: { prunes: pruning.count, net: pruning.range() },
		bySession: sessionGroups,
		byDay: list('day'),
		byMonth: list('month'),
		byProjectWeek: list('week'),
		mostExpensive: [...sessionGroups].sort((a, b) => b.sums.cost - a.sums.cost).slice(0, options.top ?? 10),
		settings: compareSettings(rows),
	};
}

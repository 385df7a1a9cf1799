/**
 * The costs of the whole history as the index answers them (`docs/costs.md`, "Across sessions"): each
 * request once, per project and ISO week, per day and month, the most expensive sessions, cache
 * rebuilds, pruning's net effect from the prune accounts kept, and which settings paid back best.
 * Nothing is read from a session file: the pruned sessions whose accounts are missing or older than
 * their file are counted in `accountsDue` (the command line reads them first; VS Code keeps the
 * accounts its Costs panel works out for a session, `PageCosts`).
 */
import { historyReport, indexedHistorySteps, NO_PRICES, type HistoryReport, type PriceBook } from '../../engine/costs';
import type { SliceRunner } from '../../work';
import type { SessionRoot } from '../sessions/sessionLocations';
import type { HistoryIndex } from './historyIndex';

export interface HistoryCostsOptions {
	/** IANA zone days, weeks and months are counted in (default UTC). */
	readonly timeZone?: string;
	/** How many sessions `mostExpensive` lists (default 10). */
	readonly top?: number;
	/** Catalog prices of models that recorded no cost (none by default). */
	readonly prices?: PriceBook;
}

export interface HistoryCosts {
	readonly report: HistoryReport;
	/** Each session's title (its name, else the start of its id and its project), by path. */
	readonly titles: Readonly<Record<string, string>>;
	/** Pruned sessions whose pruning is not (or no longer) counted: their accounts are missing or older than the file. */
	readonly accountsDue: number;
}

export async function historyCosts(index: HistoryIndex, roots: readonly SessionRoot[], work: SliceRunner, options: HistoryCostsOptions = {}, signal?: AbortSignal): Promise<HistoryCosts> {
	const sessions = await index.costSessions(roots);
	const rows = await work.sliced(indexedHistorySteps(sessions, options.prices ?? NO_PRICES), signal);
	const report = historyReport(rows.requests, rows.sessions, { ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }), ...(options.top === undefined ? {} : { top: options.top }) });
	const titles: Record<string, string> = {};
	for (const session of rows.sessions) {
		titles[session.session] = session.title ?? `${session.id.slice(0, 8)} (${session.project})`;
	}
	const due = await index.accountsDue(roots, () => undefined);
	return { report, titles, accountsDue: due.length };
}

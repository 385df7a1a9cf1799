/**
 * The "Pi Sessions" view as plain data: projects (by the header's `cwd`, the workspace's own first)
 * holding their sessions, each with a label that tells it apart, its time, message count and
 * reclaim. Filtering by text happens here too. No `vscode`, no I/O.
 *
 * The order is steady: projects and sessions are ordered by their last activity as it was when the
 * order was captured (`captureOrder`, once per refresh), not as it is now, so a summary read in the
 * background (which brings Pi's own "modified" time) or a session Pi writes to never moves a row
 * under the cursor. What was not listed at the capture (a new session, a new project) comes first,
 * newest first: it is the newest activity.
 */
import type { SessionSummary } from '../session/summary';
import type { PruneState } from './pruneState';
import { distinctFolderNames, distinctSessionLabels, normalizeFolder, sessionTitle, shortenHome, type SessionLabel } from './sessionNames';
import { rowDescription, rowDetails, type RowReclaim } from './sessionRowText';

export { normalizeFolder, sessionTitle } from './sessionNames';
export { reclaimPercent, type RowReclaim } from './sessionRowText';

/** What the list reads of one session (the store's `ListedSession` has this shape). */
export interface ListedSession {
	readonly file: {
		readonly path: string; readonly size: number; readonly mtimeMs: number;
		readonly header: { readonly cwd: string; readonly timestamp?: string; readonly id?: string };
	};
	/** The background summary, with Pi's "modified" time; undefined until it arrives. */
	readonly summary: { readonly summary: SessionSummary; readonly modified: number } | undefined;
	readonly reclaim: RowReclaim | undefined;
}

export interface SessionItem {
	readonly path: string;
	/** Its whole label: `title` then `distinction`. */
	readonly label: string;
	/** Its name, else its first message, else its file name (at most 80 characters). */
	readonly title: string;
	/** What tells it from same-titled sessions of its project (` · 2026-05-30 09:15`), else empty. */
	readonly distinction: string;
	/** `6d · 12 msgs · -85%` (or the words the filter found in it). */
	readonly description: string;
	/** The description in words (`6 days ago · 12 msgs · -85%`), for screen readers. */
	readonly spokenDescription: string;
	/** The description while a Pi holds the session (`live · 12 msgs · -85%`). */
	readonly liveDescription: string;
	/** Plain-text tooltip lines. */
	readonly details: readonly string[];
	/** Epoch ms of the last activity (Pi's "modified" once the summary is known, else the file mtime). */
	readonly modified: number;
	/** True once the background summary arrived. */
	readonly summarized: boolean;
}

export interface ProjectItem {
	readonly cwd: string;
	/** The shortest end of its folder that no other listed project shares. */
	readonly label: string;
	readonly description: string;
	readonly isWorkspace: boolean;
	readonly sessions: readonly SessionItem[];
}

/** Last activity of each project (by cwd) and session (by path) when the order was captured. */
export interface ListOrder {
	readonly projects: ReadonlyMap<string, number>;
	readonly sessions: ReadonlyMap<string, number>;
}

export interface SessionListOptions {
	readonly workspaceFolders: readonly string[];
	readonly filter?: string;
	/**
	 * Sessions the filter's words were found in by a full-text search of their messages (the session
	 * index), with the matching message's words: shown whatever their names say, the words as their
	 * description.
	 */
	readonly textMatches?: ReadonlyMap<string, string>;
	readonly now: number;
	readonly homedir?: string;
	/** A session's pruning state (its project's); undefined until its release is known. */
	readonly stateOf?: (path: string) => PruneState | undefined;
	/** The captured order; without one, the order of the activity now. */
	readonly order?: ListOrder;
	/** The start time of same-titled sessions (default: `YYYY-MM-DD HH:MM`, UTC). */
	readonly formatTime?: (epochMs: number) => string;
}

export function buildSessionList(rows: readonly ListedSession[], options: SessionListOptions): ProjectItem[] {
	const filter = options.filter?.trim().toLowerCase() ?? '';
	const byCwd = new Map<string, ListedSession[]>();
	for (const row of rows) {
		if (filter === '' || matches(row, filter) || options.textMatches?.has(row.file.path) === true) {
			byCwd.set(row.file.header.cwd, [...(byCwd.get(row.file.header.cwd) ?? []), row]);
		}
	}
	// Named against every listed project, so a filter does not change a project's name.
	const names = distinctFolderNames([...new Set(rows.map((row) => row.file.header.cwd))]);
	const formatTime = options.formatTime ?? ((ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' '));
	const workspace = options.workspaceFolders.map(normalizeFolder);
	const order = options.order;
	const projects = [...byCwd].map(([cwd, listed]): ProjectItem => {
		const labels = distinctSessionLabels(listed, formatTime);
		const sessions = listed.map((row) => sessionItem(row, labels.get(row.file.path) ?? { title: sessionTitle(row), distinction: '' }, options, filter === '' ? undefined : options.textMatches?.get(row.file.path)));
		sortByActivity(sessions, (session) => session.path, (session) => session.modified, order?.sessions);
		const isWorkspace = workspace.includes(normalizeFolder(cwd));
		return {
			cwd,
			label: names.get(cwd) ?? cwd,
			description: `${shortenHome(cwd, options.homedir)}${isWorkspace ? ' · this workspace' : ''}`,
			isWorkspace,
			sessions,
		};
	});
	const rank = (project: ProjectItem): number => {
		const index = workspace.indexOf(normalizeFolder(project.cwd));
		return index < 0 ? workspace.length : index;
	};
	sortByActivity(projects, (project) => project.cwd, newest, order?.projects);
	// Stable: within a rank the order by activity stays.
	return projects.sort((a, b) => rank(a) - rank(b));
}

/** The order to keep until the next refresh: each project's and session's activity in this list. */
export function captureOrder(projects: readonly ProjectItem[]): ListOrder {
	return {
		projects: new Map(projects.map((project) => [project.cwd, newest(project)])),
		sessions: new Map(projects.flatMap((project) => project.sessions.map((session) => [session.path, session.modified] as const))),
	};
}

/** Newest first by the captured activity; what the capture did not see first of all (newest first). */
function sortByActivity<T>(items: T[], key: (item: T) => string, activity: (item: T) => number, captured: ReadonlyMap<string, number> | undefined): void {
	const at = (item: T): number => captured?.get(key(item)) ?? Number.POSITIVE_INFINITY;
	items.sort((a, b) => {
		const capturedA = at(a);
		const capturedB = at(b);
		if (capturedA !== capturedB) {
			return capturedB - capturedA;
		}
		return capturedA === Number.POSITIVE_INFINITY ? activity(b) - activity(a) || key(a).localeCompare(key(b)) : key(a).localeCompare(key(b));
	});
}

/** The session a fresh window selects: the newest of the workspace's projects, else the newest of all when no folder is open. */
export function defaultSession(projects: readonly ProjectItem[], hasWorkspace: boolean): string | undefined {
	const candidates = hasWorkspace ? projects.filter((project) => project.isWorkspace) : projects;
	let best: SessionItem | undefined;
	for (const session of candidates.flatMap((project) => project.sessions)) {
		if (!best || session.modified > best.modified) {
			best = session;
		}
	}
	return best?.path;
}

function sessionItem(row: ListedSession, label: SessionLabel, options: SessionListOptions, matchedWords: string | undefined): SessionItem {
	const summary = row.summary?.summary;
	const facts = {
		path: row.file.path, size: row.file.size, summary, reclaim: row.reclaim,
		modified: row.summary?.modified ?? row.file.mtimeMs, state: options.stateOf?.(row.file.path),
	};
	return {
		path: row.file.path,
		label: `${label.title}${label.distinction}`,
		title: label.title,
		distinction: label.distinction,
		description: matchedWords ?? rowDescription(facts, options.now, 'compact'),
		spokenDescription: matchedWords ?? rowDescription(facts, options.now, 'words'),
		liveDescription: matchedWords === undefined ? rowDescription(facts, options.now, 'live') : `live · ${matchedWords}`,
		details: matchedWords === undefined ? rowDetails(facts) : [`Found: ${matchedWords}`, ...rowDetails(facts)],
		modified: facts.modified,
		summarized: summary !== undefined,
	};
}

function matches(row: ListedSession, filter: string): boolean {
	const summary = row.summary?.summary;
	return [summary?.name, summary?.firstUserMessage, row.file.header.cwd, row.file.path.split(/[\\/]/).at(-1)]
		.some((text) => text !== undefined && text.toLowerCase().includes(filter));
}

function newest(project: ProjectItem): number {
	let best = 0;
	for (const session of project.sessions) {
		best = Math.max(best, session.modified);
	}
	return best;
}

/**
 * The "Pi Sessions" view as plain data: projects (by the header's `cwd`, the workspace's own first)
 * holding their sessions newest first, each with its label (name, else first user message), time,
 * message count and reclaim. Filtering by text happens here too. No `vscode`, no I/O.
 */
import { charsToTokens, formatCompactCount } from '../condense';
import { formatBytes } from '../../base/numberFormat';
import { lastPathSegment } from '../paths/pathName';
import type { SessionSummary } from '../session/summary';
import { relativeTime } from '../../base/relativeTime';

export type RowReclaim =
	/** Context size with pruning on (`JSON.stringify` length) before and after pi-condense's render. */
	| { readonly kind: 'measured'; readonly beforeChars: number; readonly afterChars: number }
	/** The render changes nothing. */
	| { readonly kind: 'none' }
	/** Not measured in the background: the file is larger than the cap (select it to measure). */
	| { readonly kind: 'too-large'; readonly size: number }
	| { readonly kind: 'failed'; readonly message: string };

/** What the list reads of one session (the store's `ListedSession` has this shape). */
export interface ListedSession {
	readonly file: { readonly path: string; readonly size: number; readonly mtimeMs: number; readonly header: { readonly cwd: string } };
	/** The background summary, with Pi's "modified" time; undefined until it arrives. */
	readonly summary: { readonly summary: SessionSummary; readonly modified: number } | undefined;
	readonly reclaim: RowReclaim | undefined;
}

export interface SessionItem {
	readonly path: string;
	readonly label: string;
	readonly description: string;
	/** Plain-text tooltip lines. */
	readonly details: readonly string[];
	/** Epoch ms used for ordering (Pi's "modified" once the summary is known, else the file mtime). */
	readonly modified: number;
	/** True once the background summary arrived. */
	readonly summarized: boolean;
}

export interface ProjectItem {
	readonly cwd: string;
	readonly label: string;
	readonly description: string;
	readonly isWorkspace: boolean;
	readonly sessions: readonly SessionItem[];
}

export interface SessionListOptions {
	readonly workspaceFolders: readonly string[];
	readonly filter?: string;
	readonly now: number;
	readonly homedir?: string;
	/** contextPrune.enabled: when off, the reclaim figures say what pruning would take off. */
	readonly pruningEnabled: boolean;
}

const LABEL_MAX = 80;

export function buildSessionList(rows: readonly ListedSession[], options: SessionListOptions): ProjectItem[] {
	const filter = options.filter?.trim().toLowerCase() ?? '';
	const byCwd = new Map<string, SessionItem[]>();
	for (const row of rows) {
		if (filter !== '' && !matches(row, filter)) {
			continue;
		}
		const list = byCwd.get(row.file.header.cwd) ?? [];
		list.push(sessionItem(row, options.now, options.pruningEnabled));
		byCwd.set(row.file.header.cwd, list);
	}
	const workspace = options.workspaceFolders.map(normalizeFolder);
	const projects = [...byCwd].map(([cwd, sessions]): ProjectItem => {
		sessions.sort((a, b) => b.modified - a.modified || a.path.localeCompare(b.path));
		const isWorkspace = workspace.includes(normalizeFolder(cwd));
		return {
			cwd,
			label: cwd === '' ? '(no project folder)' : lastPathSegment(normalizeFolder(cwd)) || cwd,
			description: `${shortenHome(cwd, options.homedir)}${isWorkspace ? ' · this workspace' : ''}`,
			isWorkspace,
			sessions,
		};
	});
	const rank = (project: ProjectItem): number => {
		const index = workspace.indexOf(normalizeFolder(project.cwd));
		return index < 0 ? workspace.length : index;
	};
	return projects.sort((a, b) => rank(a) - rank(b) || newest(b) - newest(a) || a.cwd.localeCompare(b.cwd));
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

/** `-85%`, or undefined when there is no measured figure. */
export function reclaimPercent(reclaim: RowReclaim | undefined): string | undefined {
	if (reclaim?.kind !== 'measured') {
		return undefined;
	}
	const before = charsToTokens(reclaim.beforeChars);
	const after = charsToTokens(reclaim.afterChars);
	return `-${before === 0 ? 0 : Math.max(0, Math.round((1 - after / before) * 100))}%`;
}

/** A session's title as the list shows it: its name, else its first user message, else its file name. */
export function sessionTitle(row: ListedSession): string {
	const summary = row.summary?.summary;
	return summary?.name ?? firstLine(summary?.firstUserMessage) ?? (summary ? '(no messages)' : lastPathSegment(row.file.path, '.jsonl'));
}

function sessionItem(row: ListedSession, now: number, pruningEnabled: boolean): SessionItem {
	const summary = row.summary?.summary;
	const modified = row.summary?.modified ?? row.file.mtimeMs;
	const parts = [relativeTime(modified, now)];
	if (summary) {
		parts.push(`${summary.messageCount} msg${summary.messageCount === 1 ? '' : 's'}`);
	}
	const percent = reclaimPercent(row.reclaim);
	if (percent) {
		parts.push(pruningEnabled ? percent : `${percent} if on`);
	}
	return {
		path: row.file.path,
		label: sessionTitle(row),
		description: parts.join(' · '),
		details: details(row, modified, pruningEnabled),
		modified,
		summarized: summary !== undefined,
	};
}

function details(row: ListedSession, modified: number, pruningEnabled: boolean): string[] {
	const summary = row.summary?.summary;
	const lines = [row.file.path, `Last activity: ${new Date(modified).toLocaleString()}`];
	if (summary) {
		lines.push(`${summary.messageCount} messages, ${summary.entryCount} entries, ${formatBytes(row.file.size)}`);
		if (summary.invalidLineCount > 0) {
			lines.push(`${summary.invalidLineCount} unreadable line(s): Pi skips them`);
		}
	}
	const reclaim = row.reclaim;
	if (reclaim?.kind === 'measured') {
		const tokens = (chars: number): string => formatCompactCount(charsToTokens(chars));
		const figures = `${reclaimPercent(reclaim)} of the context: ${tokens(reclaim.beforeChars)} -> ${tokens(reclaim.afterChars)} tokens (chars / 4)`;
		lines.push(pruningEnabled ? `pi-condense reclaims ${figures}` : `Pruning is off: the model gets the whole context. With pruning on, pi-condense would reclaim ${figures}`);
	} else if (reclaim?.kind === 'too-large') {
		lines.push(`Reclaim not measured in the background (${formatBytes(reclaim.size)}): select the session to measure it`);
	} else if (reclaim?.kind === 'failed') {
		lines.push(`Reclaim could not be measured: ${reclaim.message}`);
	}
	return lines;
}

function matches(row: ListedSession, filter: string): boolean {
	const summary = row.summary?.summary;
	return [summary?.name, summary?.firstUserMessage, row.file.header.cwd, lastPathSegment(row.file.path)]
		.some((text) => text !== undefined && text.toLowerCase().includes(filter));
}

function newest(project: ProjectItem): number {
	return project.sessions[0]?.modified ?? 0;
}

function firstLine(text: string | undefined): string | undefined {
	const line = text?.split('\n').find((part) => part.trim() !== '')?.trim();
	if (line === undefined) {
		return undefined;
	}
	return line.length > LABEL_MAX ? `${line.slice(0, LABEL_MAX - 1)}…` : line;
}

/** The folder without trailing separators (a loop: `/[\\/]+$/` is quadratic on a hostile header `cwd`). */
export function normalizeFolder(path: string): string {
	let end = path.length;
	while (end > 0 && (path.charAt(end - 1) === '/' || path.charAt(end - 1) === '\\')) {
		end--;
	}
	return path.length > 1 ? path.slice(0, end) : path;
}

function shortenHome(path: string, homedir: string | undefined): string {
	return homedir && (path === homedir || path.startsWith(`${homedir}/`)) ? `~${path.slice(homedir.length)}` : path;
}


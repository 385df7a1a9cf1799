/**
 * Names that tell projects and sessions apart in the "Pi Sessions" view: a project is named by the
 * shortest suffix of its folder no other project shares (`api/project`, `web/project`), a session by
 * its name, else its first user message, else its file name, and sessions of one project that read
 * the same get their start time (and, if that is the same too, their id). Pure.
 */
import { lastPathSegment } from '../paths/pathName';
import type { SessionSummary } from '../session/summary';

const LABEL_MAX = 80;

/** What naming reads of a listed session. */
export interface NamedSession {
	readonly file: { readonly path: string; readonly header: { readonly cwd: string; readonly timestamp?: string; readonly id?: string } };
	readonly summary: { readonly summary: SessionSummary } | undefined;
}

/** A session's title as the list shows it: its name, else its first user message, else its file name. */
export function sessionTitle(row: NamedSession): string {
	const summary = row.summary?.summary;
	return summary?.name ?? firstLine(summary?.firstUserMessage) ?? (summary ? '(no messages)' : lastPathSegment(row.file.path, '.jsonl'));
}

/**
 * Each folder's shortest trailing run of path segments that no other folder of `folders` ends with
 * (the whole path when even that is shared). `(no project folder)` for an empty one.
 */
export function distinctFolderNames(folders: readonly string[]): Map<string, string> {
	const names = new Map<string, string>();
	const parts = new Map<string, string[]>();
	for (const folder of new Set(folders)) {
		if (folder === '') {
			names.set(folder, '(no project folder)');
		} else {
			parts.set(folder, splitFolder(folder));
		}
	}
	// One pass per suffix length over the folders not yet told apart: linear in folders × depth.
	let open = [...parts.keys()];
	for (let take = 1; open.length > 0; take++) {
		const counts = new Map<string, number>();
		for (const folder of parts.keys()) {
			const name = suffix(parts.get(folder) as string[], take);
			counts.set(name, (counts.get(name) ?? 0) + 1);
		}
		open = open.filter((folder) => {
			const own = parts.get(folder) as string[];
			const name = suffix(own, take);
			if (counts.get(name) === 1 || take >= own.length) {
				names.set(folder, counts.get(name) === 1 && name !== '' ? name : folder);
				return false;
			}
			return true;
		});
	}
	return names;
}

/** A session's label in two parts: its title, and what tells it from same-titled sessions of its project (`' · 2026-05-30 09:15'`, or `''`). */
export interface SessionLabel {
	readonly title: string;
	readonly distinction: string;
}

/**
 * Labels for the sessions of one project: their titles, with the start time added to each title
 * several sessions share, and the id's first characters when the times are the same too.
 */
export function distinctSessionLabels(rows: readonly NamedSession[], formatTime: (epochMs: number) => string): Map<string, SessionLabel> {
	const byTitle = new Map<string, NamedSession[]>();
	for (const row of rows) {
		const title = sessionTitle(row);
		byTitle.set(title, [...(byTitle.get(title) ?? []), row]);
	}
	const labels = new Map<string, SessionLabel>();
	for (const [title, same] of byTitle) {
		if (same.length === 1) {
			labels.set((same[0] as NamedSession).file.path, { title, distinction: '' });
			continue;
		}
		const timed = same.map((row) => ({ row, time: startTime(row, formatTime) }));
		for (const { row, time } of timed) {
			const sameTime = timed.filter((other) => other.time === time).length > 1;
			const id = row.file.header.id ?? lastPathSegment(row.file.path, '.jsonl');
			labels.set(row.file.path, { title, distinction: ` · ${time}${sameTime ? ` · ${id.slice(0, 8)}` : ''}` });
		}
	}
	return labels;
}

/** The session's start (its header's timestamp), formatted; `started ?` when the header has none that reads. */
function startTime(row: NamedSession, formatTime: (epochMs: number) => string): string {
	const ms = Date.parse(row.file.header.timestamp ?? '');
	return Number.isFinite(ms) ? formatTime(ms) : 'started ?';
}

/** The folder without trailing separators (a loop: `/[\\/]+$/` is quadratic on a hostile header `cwd`). */
export function normalizeFolder(path: string): string {
	let end = path.length;
	while (end > 0 && (path.charAt(end - 1) === '/' || path.charAt(end - 1) === '\\')) {
		end--;
	}
	return path.length > 1 ? path.slice(0, end) : path;
}

export function shortenHome(path: string, homedir: string | undefined): string {
	return homedir && (path === homedir || path.startsWith(`${homedir}/`)) ? `~${path.slice(homedir.length)}` : path;
}

function splitFolder(folder: string): string[] {
	return normalizeFolder(folder).split(/[\\/]/).filter((part) => part !== '');
}

function suffix(parts: readonly string[], n: number): string {
	return parts.slice(Math.max(0, parts.length - n)).join('/');
}

function firstLine(text: string | undefined): string | undefined {
	const line = text?.split('\n').find((part) => part.trim() !== '')?.trim();
	if (line === undefined) {
		return undefined;
	}
	return line.length > LABEL_MAX ? `${line.slice(0, LABEL_MAX - 1)}…` : line;
}

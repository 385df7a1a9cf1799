/**
 * Groups sessions by project (the header's `cwd`) and orders them newest first, for the sidebar.
 */
import type { SessionFile } from './discoverSessions';

export interface ProjectGroup<S extends SessionFile = SessionFile> {
	/** The project folder from the session headers (`''` when a header has none). */
	readonly cwd: string;
	/** Newest first. */
	readonly sessions: readonly S[];
	/** Time of the newest session in the group. */
	readonly newest: number;
}

/**
 * @param modifiedOf a session's "modified" time; the file mtime by default, or Pi's rule from
 *   `sessionModifiedTime` once summaries are known.
 */
export function groupByProject<S extends SessionFile>(sessions: readonly S[], modifiedOf: (session: S) => number = (s) => s.mtimeMs): ProjectGroup<S>[] {
	const byCwd = new Map<string, { session: S; time: number }[]>();
	for (const session of sessions) {
		const list = byCwd.get(session.header.cwd) ?? [];
		list.push({ session, time: modifiedOf(session) });
		byCwd.set(session.header.cwd, list);
	}
	const groups: ProjectGroup<S>[] = [];
	for (const [cwd, list] of byCwd) {
		list.sort((a, b) => b.time - a.time || a.session.path.localeCompare(b.session.path));
		groups.push({ cwd, sessions: list.map((item) => item.session), newest: list[0]?.time ?? 0 });
	}
	return groups.sort((a, b) => b.newest - a.newest || a.cwd.localeCompare(b.cwd));
}

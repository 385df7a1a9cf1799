/**
 * The sessions a terminal user names without a path: found where Pi keeps them (as the extension
 * finds them, with the current folder as the project), summarized (title, message count, last
 * activity) and grouped by project with the session list's own rules (`buildSessionList`). A
 * session is then named by `--latest` (the newest of the current folder's project, else of all) or
 * by a prefix of its id.
 */
import { homedir } from 'node:os';
import { buildSessionList, type ListedSession, type ProjectItem } from '../engine/views';
import { mapLimited } from '../engine/flush';
import { resolveSessionLocations } from '../node/sessions/sessionLocations';
import { discoverSessions, type SessionFile } from '../node/sessions/discoverSessions';
import { SessionSummaryCache } from '../node/sessions/summaryCache';
import { UsageError } from './cliArgs';
import { cliAgentDir } from './cliAgentDir';

export interface Catalog {
	readonly projects: readonly ProjectItem[];
	/** Every listed session by path, with its header. */
	readonly files: ReadonlyMap<string, SessionFile>;
	readonly cwd: string;
}

/** Reads the first line and the summary of every session (a few files at a time). */
export async function readCatalog(agentDirOption: string | undefined, cwd: string, now = Date.now()): Promise<Catalog> {
	const agentDir = cliAgentDir(agentDirOption);
	const locations = await resolveSessionLocations({ agentDir, env: process.env, homedir: homedir(), workspaceFolders: [cwd], trustProjectSettings: true });
	const found = await discoverSessions(locations.roots);
	const summaries = new SessionSummaryCache();
	const rows = await mapLimited(found.sessions, 8, async (file): Promise<ListedSession> => {
		const summary = await summaries.summarize(file.path).catch(() => undefined);
		return { file, summary: summary && { summary: summary.summary, modified: summary.modified }, reclaim: undefined };
	});
	const projects = buildSessionList(rows, { workspaceFolders: [cwd], now, homedir: homedir() });
	return { projects, files: new Map(found.sessions.map((file) => [file.path, file])), cwd };
}

/** The newest session of the current folder's project, else the newest of all; says which on `note`. */
export function latestSession(catalog: Catalog, note: (text: string) => void): string {
	const own = catalog.projects.find((project) => project.isWorkspace);
	const newest = (projects: readonly ProjectItem[]): string | undefined => projects.flatMap((project) => project.sessions)
		.reduce<{ path: string; modified: number } | undefined>((best, session) => (!best || session.modified > best.modified ? session : best), undefined)?.path;
	const path = (own && newest([own])) ?? newest(catalog.projects);
	if (path === undefined) {
		throw new UsageError('--latest: no Pi session found (pi-condense list says where it looked)');
	}
	if (!own) {
		note(`no session of ${catalog.cwd}: the newest of all is used`);
	}
	return path;
}

/** The one session whose id starts with `prefix` (case-insensitive). */
export function sessionByIdPrefix(catalog: Catalog, prefix: string): string {
	const wanted = prefix.toLowerCase();
	const matches = [...catalog.files.values()].filter((file) => file.header.id.toLowerCase().startsWith(wanted));
	if (matches.length === 1) {
		return (matches[0] as SessionFile).path;
	}
	if (matches.length === 0) {
		throw new UsageError(`"${prefix}" is neither a session file nor the start of a session id (pi-condense list shows them)`);
	}
	const shown = matches.slice(0, 5).map((file) => `  ${file.header.id}  ${file.path}`).join('\n');
	throw new UsageError(`"${prefix}" starts ${matches.length} session ids; give more of it:\n${shown}${matches.length > 5 ? '\n  …' : ''}`);
}

/** `pi-condense list`: projects, the current folder's first, each with its sessions newest first. */
export function listText(catalog: Catalog): string {
	if (catalog.projects.length === 0) {
		return 'No Pi sessions found.';
	}
	return catalog.projects.map((project) => [
		`${project.label} (${project.description}) · ${project.sessions.length} session${project.sessions.length === 1 ? '' : 's'}`,
		...project.sessions.map((session) => `  ${(catalog.files.get(session.path)?.header.id ?? '').slice(0, 8)}  ${session.description.padEnd(22)}  ${session.label}`),
	].join('\n')).join('\n\n');
}

/** `pi-condense list --json`: the same as data, with full ids and paths. */
export function listJson(catalog: Catalog): string {
	return JSON.stringify(catalog.projects.map((project) => ({
		project: project.cwd,
		sessions: project.sessions.map((session) => ({
			id: catalog.files.get(session.path)?.header.id, path: session.path, title: session.label, lastActivity: new Date(session.modified).toISOString(),
		})),
	})), null, 2);
}

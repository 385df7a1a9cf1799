/**
 * The session list of one start of the store: the sessions found under the located folders, merged
 * into the rows, with what was searched and what was left out (and why) for Show Status.
 */
import type { Logger } from '../../engine/ports';
import type { SessionLocations, SessionRoot } from '../sessions/sessionLocations';
import { discoverSessions, listSessionPaths, readSessionFiles, type SearchedFolder, type UnlistedSessionFile } from '../sessions/discoverSessions';
import type { SessionRows } from './sessionRows';

export interface DiscoveryReport {
	readonly locations: SessionLocations | undefined;
	readonly searched: readonly SearchedFolder[];
	readonly unlisted: readonly UnlistedSessionFile[];
	/** True once the first listing finished. */
	readonly done: boolean;
}

export const NOT_LISTED_YET: DiscoveryReport = { locations: undefined, searched: [], unlisted: [], done: false };

/** The report of folders just located (nothing listed yet); says in the log what the location found odd. */
export function locatedReport(locations: SessionLocations, logger: Logger): DiscoveryReport {
	for (const note of locations.notes) {
		logger.warn(note);
	}
	for (const redirect of locations.projectRedirects) {
		logger.info(`sessions are read from ${redirect.folder}, as sessionDir in the project's ${redirect.settingsFile} says`);
	}
	return { locations, searched: [], unlisted: [], done: false };
}

/** Lists the session files of `locations` into `rows`; the new report and how many rows were added. */
export async function listSessions(locations: SessionLocations, rows: SessionRows, logger: Logger): Promise<{ readonly report: DiscoveryReport; readonly added: number }> {
	const found = await discoverSessions(locations.roots);
	let added = 0;
	for (const file of found.sessions) {
		if (rows.upsertFile(file)) {
			added++;
		}
	}
	for (const file of found.unlisted) {
		logger.debug(`not listed: ${file.path}: ${file.reason}`);
	}
	return { report: { locations, searched: found.searched, unlisted: found.unlisted, done: true }, added };
}

/**
 * The report of a listing from the session index: the folders searched (a directory read each, no
 * file read) and the files it leaves out; and the session files the index does not know yet (a first
 * build to come, files made while no window ran), neither listed nor left out by it.
 */
export async function indexedReport(locations: SessionLocations, unlisted: readonly UnlistedSessionFile[], indexed: (path: string) => boolean): Promise<{ readonly report: DiscoveryReport; readonly notIndexed: { readonly path: string; readonly root: SessionRoot }[] }> {
	const notIndexed: { path: string; root: SessionRoot }[] = [];
	const leftOut = new Set(unlisted.map((file) => file.path));
	const searched = await Promise.all(locations.roots.map(async (root): Promise<SearchedFolder> => {
		const listing = await listSessionPaths(root);
		notIndexed.push(...listing.paths.filter((path) => !indexed(path) && !leftOut.has(path)).map((path) => ({ path, root })));
		return { root, exists: listing.exists, fileCount: listing.paths.length, ...(listing.error ? { error: listing.error } : {}) };
	}));
	return { report: { locations, searched, unlisted, done: true }, notIndexed };
}

/** Lists these files into `rows` from their first lines (as without an index); how many rows were added. */
export async function listSessionFiles(files: readonly { readonly path: string; readonly root: SessionRoot }[], rows: SessionRows, logger: Logger): Promise<number> {
	const found = await readSessionFiles(files);
	for (const file of found.unlisted) {
		logger.debug(`not listed: ${file.path}: ${file.reason}`);
	}
	return found.sessions.filter((file) => rows.upsertFile(file)).length;
}

/**
 * The store's session list: the sessions found under the located folders (or listed by the session
 * index), merged into the rows, with what was searched and what was left out (and why) for Show
 * Status. `StoreListing` keeps the last start's report and tells the store when the list changed.
 */
import type { Logger } from '../../engine/ports';
import type { SessionLocations, SessionRoot } from '../sessions/sessionLocations';
import { discoverSessions, listSessionPaths, readSessionFiles, type SearchedFolder, type UnlistedSessionFile } from '../sessions/discoverSessions';
import type { SessionRows } from './sessionRows';
import type { StoreIndex } from './storeIndex';

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

/** The report of the last start's listing, and the listings that make it. */
export class StoreListing {
	private current: DiscoveryReport = NOT_LISTED_YET;

	constructor(private readonly rows: SessionRows, private readonly logger: Logger, private readonly listChanged: () => void) {}

	get report(): DiscoveryReport {
		return this.current;
	}

	/** Folders just located: nothing listed from them yet. */
	located(locations: SessionLocations): void {
		this.current = locatedReport(locations, this.logger);
	}

	/** The report of a listing from the index: the folders searched and the files it leaves out. */
	async listedFromIndex(index: StoreIndex, locations: SessionLocations, signal: AbortSignal): Promise<void> {
		const { report, notIndexed } = await indexedReport(locations, index.unlisted, (path) => this.rows.has(path));
		if (signal.aborted) {
			return;
		}
		this.current = report;
		this.listChanged();
		// Every session is listed before the refresh reads them (their first lines only): a first build's
		// sessions are there at once, and the workspace's go first in it (`SessionStore.firstPaths`).
		if (notIndexed.length > 0 && await listSessionFiles(notIndexed, this.rows, this.logger) > 0 && !signal.aborted) {
			this.listChanged();
		}
	}

	/** Lists the located folders' session files into the rows (the first listing, or the files new since). */
	async list(signal: AbortSignal): Promise<void> {
		const locations = this.current.locations;
		if (!locations) {
			return;
		}
		const first = !this.current.done;
		const { report, added } = await listSessions(locations, this.rows, this.logger);
		if (signal.aborted) {
			return;
		}
		this.current = report;
		if (added > 0 || first) {
			this.listChanged();
		}
	}
}

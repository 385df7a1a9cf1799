/**
 * The node side of the extension's session state: finds Pi's sessions (first lines only), keeps the
 * list current through the watcher, fills in summaries and reclaim figures in the background when a
 * view asks for them, keeps the selected session's model open and advances it from appended bytes,
 * and holds Pi's `contextPrune` settings. No `vscode`: the host's SessionController wraps it.
 */
import type { Logger } from '../../engine/ports';
import type { SessionLocations } from '../paths/sessionLocations';
import type { PruneSettings } from '../settings/readPruneSettings';
import type { PruneMutation, PruneSettingsWrite } from '../settings/updatePruneSettings';
import { discoverSessions, type SearchedFolder, type UnlistedSessionFile } from '../sessions/discoverSessions';
import { watchSessionFiles, type SessionWatcher } from '../sessions/sessionWatcher';
import { Emitter } from './emitter';
import { OpenSession } from './openSession';
import { OpenSessionCache } from './openSessionCache';
import { ReleaseSource } from '../release/releaseSource';
import { PruneSettingsSource } from './pruneSettingsSource';
import { SessionSettingsResolver, type SessionSettings } from './sessionSettings';
import { RowDetails } from './rowDetails';
import { StoreFileEvents, type FileEventChange } from './storeFileEvents';
import { SessionRows, type SessionRow } from './sessionRows';
import { errorMessage } from '../../base/errorMessage';

export type StoreChange = FileEventChange | { readonly kind: 'settings'; readonly settings: PruneSettings };

export interface SessionStoreOptions {
	/** Where to look: called on start and on every restart (the agent dir setting changed). */
	readonly locate: () => Promise<SessionLocations>;
	readonly logger: Logger;
	/** Sessions kept in memory besides the selected one. Default 3. */
	readonly openCapacity?: number;
	/** Files above this size get no background reclaim figure. Default 64 MB. */
	readonly reclaimMaxBytes?: number;
	/** The `piCondense.release` value (`auto` or a known release) at start; `setReleaseChoice` changes it. */
	readonly releaseChoice?: unknown;
	/**
	 * Whether a project's `.pi/settings.json` may be followed at all (read at each start): VS Code's
	 * workspace trust. Pi's trust.json must trust the project too.
	 */
	readonly projectSettingsAllowed: () => boolean;
	/**
	 * The project whose release and settings apply while no session is selected (the first workspace
	 * folder; undefined for the user's Pi alone): resolved at start, before the first listing, so that
	 * the status bar is right from the first moment.
	 */
	readonly scopeCwd?: () => string | undefined;
	/** Folders the installed Pi is never followed into (read at each start): the open workspace folders. */
	readonly workspaceFolders?: () => readonly string[];
}

export interface DiscoveryReport {
	readonly locations: SessionLocations | undefined;
	readonly searched: readonly SearchedFolder[];
	readonly unlisted: readonly UnlistedSessionFile[];
	/** True once the first listing finished. */
	readonly done: boolean;
}

export class SessionStore {
	private readonly changes: Emitter<StoreChange>;
	readonly onDidChange;
	private readonly rows = new SessionRows();
	private readonly open: OpenSessionCache;
	private readonly details: RowDetails;
	/** Watcher events, in order per file. */
	private readonly fileEvents: StoreFileEvents;
	private report: DiscoveryReport = { locations: undefined, searched: [], unlisted: [], done: false };
	private watcher: SessionWatcher | undefined;
	private settingsSource: PruneSettingsSource | undefined;
	private releases: ReleaseSource | undefined;
	private resolver: SessionSettingsResolver | undefined;
	private releaseChoice: unknown;
	/** The project of `scopeSettings`, read at each start. */
	private scopeCwd: string | undefined;
	private generation = 0;
	private closed = false;

	constructor(private readonly options: SessionStoreOptions) {
		const logger = options.logger;
		this.changes = new Emitter((error) => logger.error(`store listener: ${errorMessage(error)}`));
		this.onDidChange = this.changes.event;
		this.releaseChoice = options.releaseChoice;
		// A session whose blobs folder is refused is still shown; the log says why its spilled outputs are not read.
		const refusedBlobs = new Set<string>();
		const onBlobsRefused = (reason: string): void => {
			if (!refusedBlobs.has(reason)) {
				refusedBlobs.add(reason);
				logger.warn(reason);
			}
		};
		this.open = new OpenSessionCache(options.openCapacity ?? 3, (path) => OpenSession.open(path, { onBlobsRefused, keepCosts: true }));
		this.details = new RowDetails({
			rows: this.rows,
			open: this.open,
			settings: (path) => this.readySettingsFor(path),
			changed: (path) => this.changes.fire({ kind: 'rows', paths: [path] }),
			logger,
			reclaimMaxBytes: options.reclaimMaxBytes ?? 64 * 1024 * 1024,
		});
		this.fileEvents = new StoreFileEvents({
			rows: this.rows,
			details: this.details,
			open: this.open,
			roots: () => this.report.locations?.roots ?? [],
			changed: (change) => this.changes.fire(change),
			requestDetails: (paths) => this.requestDetails(paths),
			logger,
		});
	}

	get discovery(): DiscoveryReport {
		return this.report;
	}

	get settings(): PruneSettings | undefined {
		return this.settingsSource?.settings;
	}

	/**
	 * What a session is rendered with: the settings as its project's pi-condense release reads them.
	 * Undefined before the settings or that release are known (opening a session waits for both).
	 */
	settingsFor(path: string): SessionSettings | undefined {
		const settings = this.settingsSource?.settings;
		return settings && this.resolver?.settingsFor(this.cwdOf(path), settings);
	}

	/**
	 * What applies while no session is selected: the settings as the workspace project's release
	 * reads them. Undefined until the first start has read the settings and resolved that release.
	 */
	scopeSettings(): SessionSettings | undefined {
		const settings = this.settingsSource?.settings;
		return settings && this.resolver?.settingsFor(this.scopeCwd, settings);
	}

	/** The same once the session's release has been resolved (the first time a project is seen). */
	async readySettingsFor(path: string): Promise<SessionSettings | undefined> {
		await this.resolver?.ready(this.cwdOf(path));
		return this.settingsFor(path);
	}

	/** Follows a new `piCondense.release` value (`auto` or a release). */
	setReleaseChoice(value: unknown): void {
		this.releaseChoice = value;
		this.releases?.setChoice(value);
	}

	/** Locates the folders, reads the settings, lists the sessions and starts watching. */
	async start(): Promise<void> {
		const generation = ++this.generation;
		const locations = await this.options.locate();
		if (generation !== this.generation || this.closed) {
			return;
		}
		this.report = { locations, searched: [], unlisted: [], done: false };
		for (const note of locations.notes) {
			this.options.logger.warn(note);
		}
		for (const redirect of locations.projectRedirects) {
			this.options.logger.info(`sessions are read from ${redirect.folder}, as sessionDir in the project's ${redirect.settingsFile} says`);
		}
		const settings = new PruneSettingsSource(locations.agentDir, this.options.logger);
		this.settingsSource = settings;
		settings.onDidChange((value) => {
			this.rows.clearReclaims();
			this.changes.fire({ kind: 'settings', settings: value });
		});
		const releases = new ReleaseSource({
			agentDir: locations.agentDir, logger: this.options.logger, choice: this.releaseChoice,
			projectSettingsAllowed: this.options.projectSettingsAllowed(),
			excludedRoots: this.options.workspaceFolders?.() ?? [],
		});
		this.releases = releases;
		this.resolver = new SessionSettingsResolver(releases);
		// After `pi install`, `pi update` or a new piCondense.release: every view renders again.
		releases.onDidChange(({ cwd, resolution }) => {
			this.options.logger.info(`pi-condense release${cwd ? ` for ${cwd}` : ''}: ${resolution.kind === 'followed' ? resolution.release : 'not installed'}`);
			this.rows.clearReclaims();
			this.changes.fire({ kind: 'settings', settings: settings.settings });
		});
		const watcher = watchSessionFiles({
			roots: locations.roots,
			onEvent: (event) => this.fileEvents.handle(event),
			onError: (error) => this.options.logger.warn(`session watcher: ${error.message}`),
		});
		this.watcher = watcher;
		// The workspace's release with the settings, before the first listing: no surface shows a state it later corrects.
		this.scopeCwd = this.options.scopeCwd?.();
		await Promise.all([settings.start(), releases.resolve(this.scopeCwd).catch((error: unknown) => this.options.logger.warn(`pi-condense release: ${errorMessage(error)}`))]);
		if (generation !== this.generation || this.closed) {
			return;
		}
		this.changes.fire({ kind: 'settings', settings: settings.settings });
		await this.list(generation);
		// A file created while the first listing ran is tracked by the watcher but not announced.
		await watcher.ready;
		await this.list(generation);
	}

	/** Stops everything and starts over (the agent directory changed). */
	async restart(): Promise<void> {
		await this.stop();
		this.rows.clear();
		this.open.clear();
		this.changes.fire({ kind: 'list' });
		await this.start();
	}

	rowsList(): readonly SessionRow[] {
		return this.rows.all();
	}

	row(path: string): SessionRow | undefined {
		return this.rows.get(path);
	}

	/**
	 * Asks for the summaries (and, for at most `reclaimLimit` of them, the reclaim figures) of these
	 * rows, computed in the background; `rows` changes report them.
	 */
	requestDetails(paths: readonly string[], reclaimLimit = 40): void {
		this.details.request(paths, reclaimLimit);
	}

	/** Resolves when no background work is waiting (for tests and benchmarks). */
	async idle(): Promise<void> {
		await Promise.all([this.details.idle(), this.fileEvents.idle()]);
	}

	/** The session's model, read now if it is not open yet; it then follows the file. Its release is known once this resolves. */
	async openSession(path: string): Promise<OpenSession> {
		const [session] = await Promise.all([this.open.open(path), this.resolver?.ready(this.cwdOf(path))]);
		return session;
	}

	/** Keeps this session open (the selected one). */
	pinSession(path: string | undefined): void {
		this.open.pinOnly(path);
	}

	async updateSettings(mutate: PruneMutation): Promise<PruneSettingsWrite> {
		if (!this.settingsSource) {
			throw new Error('Pi Condense has not located the Pi agent directory yet.');
		}
		return this.settingsSource.update(mutate);
	}

	async close(): Promise<void> {
		this.closed = true;
		await this.stop();
		await this.fileEvents.close();
		this.changes.dispose();
	}

	private async stop(): Promise<void> {
		this.generation++;
		this.details.clear();
		const watcher = this.watcher;
		const settings = this.settingsSource;
		const releases = this.releases;
		this.watcher = undefined;
		this.settingsSource = undefined;
		this.releases = undefined;
		this.resolver = undefined;
		await Promise.all([watcher?.close(), settings?.close(), releases?.close()]);
	}

	private async list(generation: number): Promise<void> {
		const locations = this.report.locations;
		if (!locations) {
			return;
		}
		const found = await discoverSessions(locations.roots);
		if (generation !== this.generation) {
			return;
		}
		const first = !this.report.done;
		let added = 0;
		for (const file of found.sessions) {
			if (this.rows.upsertFile(file)) {
				added++;
			}
		}
		this.report = { locations, searched: found.searched, unlisted: found.unlisted, done: true };
		for (const file of found.unlisted) {
			this.options.logger.debug(`not listed: ${file.path}: ${file.reason}`);
		}
		if (added > 0 || first) {
			this.changes.fire({ kind: 'list' });
		}
	}

	/** The project of a listed session (its header's cwd). */
	private cwdOf(path: string): string | undefined {
		return this.rows.get(path)?.file.header.cwd || undefined;
	}
}

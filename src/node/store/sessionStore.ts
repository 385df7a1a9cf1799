/**
 * The node side of the extension's session state: finds Pi's sessions (first lines only), keeps the
 * list current through the watcher, fills in summaries and reclaim figures in the background when a
 * view asks for them, keeps the selected session's model open and advances it from appended bytes,
 * and holds Pi's `contextPrune` settings. No `vscode`: the host's SessionController wraps it.
 */
import type { SessionLocations } from '../sessions/sessionLocations';
import type { PruneSettings } from '../settings/readPruneSettings';
import type { PruneMutation, PruneSettingsWrite } from '../settings/updatePruneSettings';
import { watchSessionFiles } from '../sessions/sessionWatcher';
import { Emitter } from '../../base/emitter';
import { StoreListing, type DiscoveryReport } from './sessionListing';
import { OpenSession } from './openSession';
import { OpenSessionCache } from './openSessionCache';
import type { SessionSettings } from './sessionSettings';
import { StoreSources } from './storeSources';
import { RowDetails } from './rowDetails';
import { StoreFileEvents } from './storeFileEvents';
import { SessionRows, type SessionRow } from './sessionRows';
import type { SessionFileSummary } from '../sessions/summaryCache';
import { errorMessage } from '../../base/errorMessage';
import { isWorkStopped, type WorkScope } from '../../work';
import { StoreIndex } from './storeIndex';
import type { SessionStoreOptions, StoreChange } from './sessionStoreOptions';

export type { StoreIndex } from './storeIndex';

export type { DiscoveryReport } from './sessionListing';

export type { IndexState } from './storeIndex';

export type { SessionStoreOptions, StoreChange } from './sessionStoreOptions';

export class SessionStore {
	private readonly changes: Emitter<StoreChange>;
	readonly onDidChange;
	private readonly rows = new SessionRows();
	private readonly open: OpenSessionCache;
	private readonly details: RowDetails;
	/** Watcher events, in order per file. */
	private readonly fileEvents: StoreFileEvents;
	/** The sessions listed into the rows, and the report of the last start's listing. */
	private readonly listing: StoreListing;
	/** Pi's settings and the followed releases, as the last start reads them. */
	private sources: StoreSources | undefined;
	private releaseChoice: unknown;
	/** What one start set up (the watch, the sources, the listing): a restart closes it and makes another. */
	private started: WorkScope | undefined;
	/** The session index of the last start; undefined without one. */
	private index: StoreIndex | undefined;
	/** The selected session (its file is indexed first). */
	private selected: string | undefined;

	constructor(private readonly options: SessionStoreOptions) {
		const { logger, work } = options;
		work.onClose(() => this.changes.dispose());
		this.changes = new Emitter((error) => logger.error(`store listener: ${errorMessage(error)}`));
		this.onDidChange = this.changes.event;
		this.releaseChoice = options.releaseChoice;
		this.listing = new StoreListing(this.rows, logger, () => this.changes.fire({ kind: 'list' }));
		// A session whose blobs folder is refused is still shown; the log says why its spilled outputs are not read.
		const refusedBlobs = new Set<string>();
		const onBlobsRefused = (reason: string): void => {
			if (!refusedBlobs.has(reason)) {
				refusedBlobs.add(reason);
				logger.warn(reason);
			}
		};
		// Opening reads the whole file: the reads are the store's work, so closing it stops them between
		// two pieces and waits for them (no read of ours outlives deactivation).
		const reads = work.child('open sessions');
		this.open = new OpenSessionCache(options.openCapacity ?? 3, (path) => reads.run((signal) => OpenSession.open(reads, path, { onBlobsRefused, keepCosts: true, signal })));
		this.details = new RowDetails({
			work: work.child('row details'),
			indexed: (path) => this.indexedSummary(path),
			rows: this.rows,
			open: this.open,
			settings: (path) => this.readySettingsFor(path),
			changed: (path) => this.changes.fire({ kind: 'rows', paths: [path] }),
			logger,
			reclaimMaxBytes: options.reclaimMaxBytes ?? 64 * 1024 * 1024,
		});
		this.fileEvents = new StoreFileEvents({
			work: work.child('file events'),
			rows: this.rows,
			details: this.details,
			open: this.open,
			roots: () => this.listing.report.locations?.roots ?? [],
			changed: (change) => this.changes.fire(change),
			requestDetails: (paths, reclaimLimit) => this.requestDetails(paths, reclaimLimit),
			removed: (path) => this.index?.fileRemoved(path),
			logger,
		});
	}

	/** The session index of the last start (search, its state, Cancel, Clear); undefined without one. */
	get sessionIndex(): StoreIndex | undefined {
		return this.index;
	}

	get discovery(): DiscoveryReport {
		return this.listing.report;
	}

	get settings(): PruneSettings | undefined {
		return this.sources?.settings.settings;
	}

	/**
	 * What a session is rendered with: the settings as its project's pi-condense release reads them.
	 * Undefined before the settings or that release are known (opening a session waits for both).
	 */
	settingsFor(path: string): SessionSettings | undefined {
		return this.sources?.settingsFor(this.cwdOf(path));
	}

	/**
	 * What applies while no session is selected: the settings as the workspace project's release
	 * reads them. Undefined until the first start has read the settings and resolved that release.
	 */
	scopeSettings(): SessionSettings | undefined {
		return this.sources?.scopeSettings();
	}

	/** The same once the session's release has been resolved (the first time a project is seen). */
	async readySettingsFor(path: string): Promise<SessionSettings | undefined> {
		await this.sources?.ready(this.cwdOf(path));
		return this.settingsFor(path);
	}

	/** Follows a new `piCondense.release` value (`auto` or a release). */
	setReleaseChoice(value: unknown): void {
		this.releaseChoice = value;
		this.sources?.setReleaseChoice(value);
	}

	/** Locates the folders, reads the settings, lists the sessions and starts watching; a restart or closing the store stops it. */
	async start(): Promise<void> {
		await this.started?.close();
		const started = this.options.work.child('start');
		this.started = started;
		try {
			await started.run((signal) => this.startIn(started, signal));
		} catch (error) {
			if (!isWorkStopped(error)) {
				throw error;
			}
		}
	}

	private async startIn(started: WorkScope, signal: AbortSignal): Promise<void> {
		const locations = await this.options.locate();
		if (signal.aborted) {
			return;
		}
		this.listing.located(locations);
		const sources = new StoreSources(started, {
			agentDir: locations.agentDir, logger: this.options.logger, releaseChoice: this.releaseChoice,
			projectSettingsAllowed: this.options.projectSettingsAllowed(), excludedRoots: this.options.workspaceFolders?.() ?? [],
			scopeCwd: this.options.scopeCwd?.(), ...(this.options.loginShell ? { loginShell: this.options.loginShell } : {}),
			changed: (settings) => {
				this.rows.clearReclaims();
				this.changes.fire({ kind: 'settings', settings });
			},
		});
		this.sources = sources;
		const index = this.startIndex(started, locations);
		const watcher = watchSessionFiles({
			work: started.child('watcher'),
			roots: locations.roots,
			onEvent: (event) => this.fileEvents.handle(event),
			onError: (error) => this.options.logger.warn(`session watcher: ${error.message}`),
			...(index ? { knownFiles: index.knownFiles() } : {}),
		});
		await sources.start();
		if (signal.aborted) {
			return;
		}
		this.changes.fire({ kind: 'settings', settings: sources.settings.settings });
		if (index && await index.listRows(signal)) {
			await this.listing.listedFromIndex(index, locations, signal);
			await watcher.ready;
			// A file created while the listing ran is tracked by the watcher but not announced: the refresh sees it.
			started.start(async () => {
				if (!await index.refresh(this.firstPaths()) && !signal.aborted) {
					await this.listing.list(signal);
				}
			});
			return;
		}
		await this.listing.list(signal);
		// A file created while the first listing ran is tracked by the watcher but not announced.
		await watcher.ready;
		await this.listing.list(signal);
	}

	/** The index of this start, when one is asked for; its thread ends with the start's scope. */
	private startIndex(started: WorkScope, locations: SessionLocations): StoreIndex | undefined {
		const place = this.options.sessionIndex?.();
		this.index = place && new StoreIndex(started.child('session index'), place, {
			rows: this.rows,
			roots: () => locations.roots,
			listChanged: () => this.changes.fire({ kind: 'list' }),
			stateChanged: (state) => this.changes.fire({ kind: 'index', state }),
			accountsKept: (path) => this.changes.fire({ kind: 'accounts', path }),
			logger: this.options.logger,
		});
		return this.index;
	}

	/** What a build reads first: the selected session, then the workspace project's. */
	private firstPaths(): string[] {
		const cwd = this.options.scopeCwd?.();
		const workspace = this.rows.all().filter((row) => cwd !== undefined && row.file.header.cwd === cwd).map((row) => row.file.path);
		return this.selected ? [this.selected, ...workspace] : workspace;
	}

	/**
	 * A row's summary from the index, when it answers them now (not during a build); undefined: read the file.
	 * The index is told in any case: a file that changes while a build runs is brought up to date after it.
	 */
	private async indexedSummary(path: string): Promise<SessionFileSummary | undefined> {
		const root = this.rows.get(path)?.file.root;
		return root && this.index ? this.index.fileChanged(path, root) : undefined;
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
		const [session] = await Promise.all([this.open.open(path), this.sources?.ready(this.cwdOf(path))]);
		return session;
	}

	/** Keeps this session open (the selected one). */
	pinSession(path: string | undefined): void {
		this.selected = path;
		this.open.pinOnly(path);
	}

	async updateSettings(mutate: PruneMutation): Promise<PruneSettingsWrite> {
		if (!this.sources) {
			throw new Error('Pi Condense has not located the Pi agent directory yet.');
		}
		return this.sources.update(mutate);
	}

	/** Stops what the last start set up and waits for it (the background reads of rows wait on). */
	private async stop(): Promise<void> {
		this.details.clear();
		const started = this.started;
		this.started = undefined;
		this.sources = undefined;
		this.index = undefined;
		await started?.close();
	}

	/** The project of a listed session (its header's cwd). */
	private cwdOf(path: string): string | undefined {
		return this.rows.get(path)?.file.header.cwd || undefined;
	}
}

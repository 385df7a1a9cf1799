/**
 * The session index as the store uses it (`docs/session-index.md`): rows listed from it at once on
 * a warm start (a `stat` per file, no read), one build or refresh per start (the files someone is
 * looking at first; stopped by Cancel, resumed by the next start), the watcher's changes applied
 * after it (indexWatcherCalls.ts), and search. Calls that change the index run one at a time, so the
 * watcher never races a build on the same file. While a build runs, or once the index is off or
 * cleared, the store reads summaries from the files as without an index.
 */
import type { Logger } from '../../engine/ports';
import type { StoredAccounts } from '../../engine/costs';
import { HistoryService, type HistoryServiceOptions } from '../history/service/historyService';
import type { StoredSession } from '../history/indexRows';
import type { RefreshProgress } from '../history/indexRefresh';
import type { SearchOptions, SessionHits } from '../history/historySearch';
import type { HistoryCosts } from '../history/historyCostsReport';
import type { AccountsDue } from '../history/historyCosts';
import type { UnlistedSessionFile } from '../sessions/discoverSessions';
import type { KnownFile } from '../sessions/sessionWatcher';
import type { SessionRoot } from '../sessions/sessionLocations';
import type { SessionFileSummary } from '../sessions/summaryCache';
import { errorMessage } from '../../base/errorMessage';
import { isWorkStopped, type SerialQueue, type WorkScope } from '../../work';
import type { SessionRows } from './sessionRows';
import { applyStoredRows } from './storedRows';
import { IndexWatcherCalls } from './indexWatcherCalls';

/** What the index is doing in this window. */
export type IndexState =
	| { readonly kind: 'starting' }
	| { readonly kind: 'building'; readonly progress: RefreshProgress }
	| { readonly kind: 'ready'; readonly engine: string }
	/** The build was cancelled: what it read is kept, the next start goes on from there. */
	| { readonly kind: 'stopped' }
	| { readonly kind: 'cleared' }
	| { readonly kind: 'off'; readonly reason: string };

/** Rows are re-read from the index at most this often while a build runs (the counts appear as it goes). */
const ROWS_DURING_BUILD_MS = 1000;

export interface StoreIndexOptions {
	readonly rows: SessionRows;
	readonly roots: () => readonly SessionRoot[];
	/** Rows were added or changed (`list`), or the state changed. */
	readonly listChanged: () => void;
	readonly stateChanged: (state: IndexState) => void;
	/** A session's prune accounts were kept. */
	readonly accountsKept: (path: string) => void;
	readonly logger: Logger;
}

export class StoreIndex {
	private current: IndexState = { kind: 'starting' };
	/** The files under the folders the index does not list (no valid header), with why: for Show Status. */
	private unlistedFiles: readonly UnlistedSessionFile[] = [];
	private readonly writes: SerialQueue;
	private build: AbortController | undefined;
	/** The watcher's calls, in the queue of the index's changes. */
	private readonly watcherCalls: IndexWatcherCalls;

	private readonly service: HistoryService;
	/** The index's rows as this start first reads them: one read for the listing and the watcher's first scan. */
	private firstStored: Promise<StoredSession[]> | undefined;

	/** Starts the index's thread under `work` (closing it ends the thread). */
	constructor(private readonly work: WorkScope, place: HistoryServiceOptions, private readonly options: StoreIndexOptions) {
		this.service = new HistoryService(work, place);
		this.writes = work.serialQueue();
		this.watcherCalls = new IndexWatcherCalls({
			work, service: this.service, writes: this.writes,
			answersSummaries: () => this.answersSummaries,
			takesChanges: () => this.current.kind !== 'off' && this.current.kind !== 'cleared',
			failed: (error) => this.failed(error),
		});
	}

	get state(): IndexState {
		return this.current;
	}

	get unlisted(): readonly UnlistedSessionFile[] {
		return this.unlistedFiles;
	}

	/** Whether a row's summary comes from the index now (not while a build runs, nor once off or cleared). */
	get answersSummaries(): boolean {
		return this.current.kind === 'ready' || this.current.kind === 'stopped';
	}

	/** Whether search may be asked (the index is open and not cleared; a build may be running). */
	get searchable(): boolean {
		return this.current.kind !== 'off' && this.current.kind !== 'cleared' && this.service.offReason === undefined;
	}

	/** Lists what the index has of the folders into the rows; false when the index is off. */
	async listRows(signal: AbortSignal): Promise<boolean> {
		if (await this.service.opened === undefined) {
			this.setState({ kind: 'off', reason: this.service.offReason ?? 'it could not be opened' });
			return false;
		}
		try {
			const stored = await this.storedAtStart();
			signal.throwIfAborted();
			this.applyStored(stored);
			return true;
		} catch (error) {
			return this.failed(error);
		}
	}

	/**
	 * What the index knows of each file as this start found it, for the session watcher's first scan
	 * (a file unchanged since is tracked with a `stat`); undefined when the index is off or fails.
	 */
	async knownFiles(): Promise<ReadonlyMap<string, KnownFile> | undefined> {
		try {
			if (await this.service.opened === undefined) {
				return undefined;
			}
			return new Map((await this.storedAtStart()).map((row) => [row.path, row]));
		} catch {
			return undefined; // the listing says why
		}
	}

	private storedAtStart(): Promise<StoredSession[]> {
		this.firstStored ??= this.service.stored(this.options.roots(), this.work.signal);
		return this.firstStored;
	}

	/**
	 * Brings the index up to date with the folders (`first` first) and the rows with it; resolves
	 * once done (true), or stopped or off (false: the caller lists the files itself, for the sessions
	 * the index does not have).
	 */
	refresh(first: readonly string[]): Promise<boolean> {
		return this.writes.run(async () => {
			const controller = new AbortController();
			this.build = controller;
			const signal = AbortSignal.any([controller.signal, this.work.signal]);
			const reload = this.work.throttle(ROWS_DURING_BUILD_MS, ROWS_DURING_BUILD_MS, (s) => this.reloadRows(s));
			try {
				const result = await this.service.refresh(this.options.roots(), {
					signal, first,
					onProgress: (progress) => {
						if (progress.bytesRead > 0) {
							this.setState({ kind: 'building', progress });
							reload.schedule();
						}
					},
				});
				for (const problem of result.problems) {
					this.options.logger.warn(`session index: ${problem}`);
				}
				reload.cancel();
				// A warm start's refresh finds every file unchanged: the rows listed from the index are current.
				if ([...result.outcomes].some(([outcome, count]) => outcome !== 'unchanged' && count > 0)) {
					await this.reloadRows(signal);
				}
				this.setState({ kind: 'ready', engine: (await this.service.opened) ?? '' });
				return true;
			} catch (error) {
				reload.cancel();
				if (isWorkStopped(error) && controller.signal.aborted) {
					await this.reloadRows(this.work.signal).catch(() => undefined);
					this.setState({ kind: 'stopped' });
					return false; // the sessions it did not reach are listed from their files
				}
				return this.failed(error);
			} finally {
				this.build = undefined;
			}
		});
	}

	/** Cancel on the build's progress: what was read is kept. */
	cancelBuild(): void {
		this.build?.abort();
	}

	/** The watcher's call for a file added, grown or rewritten: its summary from the index, when it answers them (`IndexWatcherCalls`). */
	fileChanged(path: string, root: SessionRoot): Promise<SessionFileSummary | undefined> {
		return this.watcherCalls.fileChanged(path, root);
	}

	fileRemoved(path: string): void {
		this.watcherCalls.fileRemoved(path);
	}

	/** The sessions and messages where the words occur, best first; undefined without an index. */
	search(input: string, options: SearchOptions, signal?: AbortSignal): Promise<SessionHits[] | undefined> {
		return this.ask(() => this.service.search(input, { ...options, roots: this.options.roots().map((root) => root.path) }, signal), undefined);
	}

	/** The costs of every session, from the index alone (each request once); undefined without an index. */
	costs(options: { readonly timeZone?: string; readonly top?: number }, signal?: AbortSignal): Promise<HistoryCosts | undefined> {
		return this.ask(() => this.service.costs(this.options.roots(), options, signal), undefined);
	}

	/** The pruned sessions whose prunes the index does not count yet; [] without an index. */
	accountsDue(signal?: AbortSignal): Promise<AccountsDue[]> {
		return this.ask(() => this.service.accountsDue(this.options.roots(), signal), []);
	}

	/**
	 * A question to the index: `otherwise` when it is off, cleared or building, or when asking fails (it is
	 * then turned off for this window, and the log says why); a stop is passed on.
	 */
	private async ask<T>(question: () => Promise<T>, otherwise: T): Promise<T> {
		if (!this.searchable) {
			return otherwise;
		}
		try {
			return await question();
		} catch (error) {
			if (isWorkStopped(error)) {
				throw error;
			}
			this.failed(error);
			return otherwise;
		}
	}

	/**
	 * Keeps a session's prune accounts, worked out from its first `consumed` bytes with `basis` (the Costs
	 * panel's): the history's costs then count its pruning. Nothing when the index is off or cleared.
	 */
	keepAccounts(path: string, consumed: number, basis: string, accounts: StoredAccounts): Promise<void> {
		if (!this.searchable) {
			return Promise.resolve();
		}
		return this.writes.run(async () => {
			if (await this.service.storeAccounts(path, consumed, basis, accounts).catch((error: unknown) => this.failed(error))) {
				this.options.accountsKept(path);
			}
		});
	}

	/** Clear the Session Index: every session forgotten; this window goes on without it until the next start. */
	clear(): Promise<void> {
		this.cancelBuild();
		return this.writes.run(async () => {
			await this.service.clear();
			this.setState({ kind: 'cleared' });
		});
	}

	private async reloadRows(signal: AbortSignal): Promise<void> {
		this.applyStored(await this.service.stored(this.options.roots(), signal));
	}

	/** Puts the index's sessions into the rows (see `applyStoredRows`). */
	private applyStored(stored: readonly StoredSession[]): void {
		const { changed, unlisted } = applyStoredRows(stored, this.options.rows, this.options.roots());
		this.unlistedFiles = unlisted;
		if (changed) {
			this.options.listChanged();
		}
	}

	private failed(error: unknown): false {
		if (isWorkStopped(error)) {
			return false;
		}
		const reason = this.service.offReason ?? errorMessage(error);
		this.options.logger.warn(`session index: ${reason}; sessions are read from their files`);
		this.setState({ kind: 'off', reason });
		return false;
	}

	private setState(state: IndexState): void {
		this.current = state;
		this.options.stateChanged(state);
	}
}

/**
 * The one model of the extension's state in the host: wraps the node-side SessionStore with
 * `vscode.EventEmitter`s, owns the selected session, its derived data and the flush activity, and
 * answers the questions the views, status bar, hovers and commands ask (the listed sessions and
 * their settings through `SessionDirectory`, what is worked out of any of them through
 * `SessionQueries`). It emits; they listen.
 */
import * as vscode from 'vscode';
import type { FlushEstimate } from '../engine/preview';
import { defaultSession, type PreparedInsight } from '../engine/views';
import type { PruneSettings } from '../node/settings/readPruneSettings';
import type { OpenSession } from '../node/store/openSession';
import type { IndexState, SessionStore, StoreChange } from '../node/store/sessionStore';
import type { AdaptiveThrottle, WorkScope } from '../work';
import { SelectedInsight } from './selectedInsight';
import { fileWorkspaceFolders } from './sessionLocator';
import { SessionQueries } from './sessionQueries';
import { errorMessage } from '../base/errorMessage';

/** What the extension is doing to the selected session. */
export type FlushActivity = 'idle' | 'summarizing';

export interface SessionControllerOptions {
	/**
	 * Its own scope: the selected session's preparation and the work views and commands ask of it
	 * (recoveries, other sessions' insights) run under it; closing it stops and waits for them.
	 */
	readonly work: WorkScope;
	readonly store: SessionStore;
	readonly logger: vscode.LogOutputChannel;
	/** Remembers the selected session per workspace. */
	readonly memento: vscode.Memento;
}

const SELECTED_KEY = 'piCondense.selectedSession';
/** The views follow the selected session's appends at most this often (see AdaptiveThrottle). */
const SESSION_REFRESH_MS = 100;
const SESSION_REFRESH_MAX_MS = 2000;

export class SessionController extends SessionQueries {
	private readonly _onDidChangeSessions = this._register(new vscode.EventEmitter<readonly string[] | undefined>());
	/** The session list changed: `undefined` for the list as a whole, else the rows that changed. */
	readonly onDidChangeSessions = this._onDidChangeSessions.event;
	private readonly _onDidChangeIndexState = this._register(new vscode.EventEmitter<IndexState>());
	/** What the session index does changed (a build's progress, ready, stopped, off, cleared). */
	readonly onDidChangeIndexState = this._onDidChangeIndexState.event;
	private readonly _onDidChangeSelection = this._register(new vscode.EventEmitter<string | undefined>());
	/** Another session was selected (or none). */
	readonly onDidChangeSelection = this._onDidChangeSelection.event;
	private readonly _onDidChangeSelectedSession = this._register(new vscode.EventEmitter<void>());
	/** The selected session's content or Pi's settings changed: derived data is new. */
	readonly onDidChangeSelectedSession = this._onDidChangeSelectedSession.event;
	private readonly _onDidChangeSettings = this._register(new vscode.EventEmitter<PruneSettings>());
	readonly onDidChangeSettings = this._onDidChangeSettings.event;
	private readonly _onDidChangeActivity = this._register(new vscode.EventEmitter<FlushActivity>());
	readonly onDidChangeActivity = this._onDidChangeActivity.event;
	private readonly _onDidEstimate = this._register(new vscode.EventEmitter<void>());
	/** A dry run of a prune of the selected session has ended (its estimate is settled). */
	readonly onDidEstimate = this._onDidEstimate.event;
	private readonly _onDidChangeOpenSession = this._register(new vscode.EventEmitter<string>());
	/** Any open session (selected or not) changed; hovers and documents of that session refresh. */
	readonly onDidChangeOpenSession = this._onDidChangeOpenSession.event;

	private selectedSession: OpenSession | undefined;
	private activityValue: FlushActivity = 'idle';
	/** The selected session's derived data, computed in slices: what the views read. */
	private readonly selectedInsight: SelectedInsight;
	private readonly selectedRefresh: AdaptiveThrottle;
	private userChoseSession = false;
	private restarting = false;

	constructor(private readonly options: SessionControllerOptions) {
		super(options.store, options.logger, options.work);
		this.selectedInsight = new SelectedInsight(options.work.child('selected session'), {
			selected: () => this.selectedSession && { session: this.selectedSession, settings: this.renderSettings },
			onReady: () => this._onDidChangeSelectedSession.fire(),
			onError: (message) => this.options.logger.error(message),
		});
		this.selectedRefresh = options.work.throttle(SESSION_REFRESH_MS, SESSION_REFRESH_MAX_MS, () => this.selectedInsight.prepare(false));
		const subscription = this.store.onDidChange((change) => this.onStoreChange(change));
		this._register({ dispose: () => subscription.dispose() });
	}

	/** Lists the sessions and selects one; resolves when the first listing is done. */
	async start(): Promise<void> {
		await this.store.start();
	}

	/** Looks for sessions again from scratch (the agent dir changed, or the user asked); keeps the selection if it still exists. */
	async restart(): Promise<void> {
		const previous = this.selectedPath;
		this.restarting = true;
		try {
			await this.store.restart();
		} finally {
			this.restarting = false;
		}
		this.selectedPath = undefined;
		this.selectedSession = undefined;
		this.selectedInsight.clear();
		if (previous !== undefined && this.store.row(previous)) {
			await this.select(previous, false);
		} else {
			this._onDidChangeSelection.fire(undefined);
			this.afterListChange();
		}
	}

	// ──── Selection ────

	get selected(): string | undefined {
		return this.selectedPath;
	}

	/**
	 * The selected session's derived data, as last computed in full (in slices, off the views' path):
	 * undefined until it first is. After an append or a settings change the views keep reading the
	 * previous one until the new one is ready, when `onDidChangeSelectedSession` fires.
	 */
	insight(): PreparedInsight | undefined {
		return this.selectedInsight.current;
	}

	/** The selected session's open model; undefined until it is read. */
	selectedOpenSession(): OpenSession | undefined {
		return this.selectedSession;
	}

	async select(path: string | undefined, byUser = true): Promise<void> {
		if (path !== undefined) {
			this.requireListed(path);
		}
		this.userChoseSession ||= byUser;
		if (path === this.selectedPath && (path === undefined || this.selectedSession)) {
			return;
		}
		this.selectedPath = path;
		this.selectedSession = undefined;
		this.selectedInsight.clear();
		this.store.pinSession(path);
		if (byUser && path !== undefined) {
			void this.options.memento.update(SELECTED_KEY, path);
		}
		this._onDidChangeSelection.fire(path);
		if (path === undefined) {
			return;
		}
		// Its title (name or first message) names it in status, stats, the views and notices, even
		// when its project was never expanded in the list.
		this.store.requestDetails([path]);
		try {
			const session = await this.store.openSession(path);
			if (this.selectedPath === path) {
				this.selectedSession = session;
				await this.selectedInsight.prepare(true);
			}
		} catch (error) {
			this.options.logger.error(`Could not read ${path}: ${errorMessage(error)}`);
			if (this.selectedPath === path) {
				this.selectedPath = undefined;
				this._onDidChangeSelection.fire(undefined);
			}
			throw error;
		}
	}

	/** The selected session's estimate of `now` once a dry run has finished for its current snapshot; undefined before. */
	settledFlushEstimate(): FlushEstimate | undefined {
		return this.selectedSession?.insight(this.renderSettings).settledEstimate('now');
	}

	protected estimated(path: string): void {
		if (path === this.selectedPath) {
			this._onDidEstimate.fire();
		}
	}

	// ──── Activity ────

	get activity(): FlushActivity {
		return this.activityValue;
	}

	setActivity(activity: FlushActivity): void {
		if (activity !== this.activityValue) {
			this.activityValue = activity;
			this._onDidChangeActivity.fire(activity);
		}
	}

	/** Resolves when the store's background work and the selected session's preparation are done (tests). */
	async idle(): Promise<void> {
		await this.store.idle();
		await this.selectedInsight.idle();
	}

	private onStoreChange(change: StoreChange): void {
		switch (change.kind) {
			case 'list':
				this._onDidChangeSessions.fire(undefined);
				this.afterListChange();
				return;
			case 'rows':
				this._onDidChangeSessions.fire(change.paths);
				return;
			case 'session':
				this._onDidChangeOpenSession.fire(change.path);
				if (change.path === this.selectedPath) {
					this.selectedRefresh.schedule();
				}
				return;
			case 'settings':
				this._onDidChangeSettings.fire(change.settings);
				void this.selectedInsight.prepare(true);
				return;
			case 'index':
				this._onDidChangeIndexState.fire(change.state);
				return;
			case 'accounts':
				return; // the Pi Costs view hears the store itself
		}
	}

	/**
	 * Keeps the user's choice while it exists. Otherwise selects the session the user chose in an
	 * earlier window, else the workspace's newest, following Pi when it starts a new session.
	 */
	private afterListChange(): void {
		if (this.restarting) {
			return;
		}
		const current = this.selectedPath;
		if (current !== undefined && this.store.row(current)) {
			if (this.userChoseSession) {
				return;
			}
		} else if (current !== undefined) {
			this.userChoseSession = false;
			void this.select(undefined, false);
		}
		const remembered = this.options.memento.get<string>(SELECTED_KEY);
		if (!this.userChoseSession && remembered !== undefined && this.store.row(remembered)) {
			this.select(remembered, true).catch(() => undefined);
			return;
		}
		const next = defaultSession(this.projects(), fileWorkspaceFolders().length > 0);
		if (next !== undefined && next !== this.selectedPath) {
			this.select(next, false).catch(() => undefined);
		}
	}

}

/**
 * The listed Pi sessions and the settings they render with, as the views and commands ask for
 * them: the session list, a session's row and title, a listed session's model (any other path is
 * refused), and Pi's `contextPrune` as each session's pi-condense release reads it. The selection
 * and what is derived from it are `SessionController`'s, which extends this.
 */
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { ContextPruneConfig } from '../engine/config';
import type { StoredAccounts } from '../engine/costs';
import type { ReleaseResolution, ReleaseRules } from '../engine/release';
import { buildSessionList, type ListOrder, type ProjectItem, type PruneState, pruneStateOf, restrictedModeRefusal, sessionTitle } from '../engine/views';
import type { PruneSettings } from '../node/settings/readPruneSettings';
import type { PruneMutation, PruneSettingsWrite } from '../node/settings/updatePruneSettings';
import type { OpenSession } from '../node/store/openSession';
import { defaultPruneSettings } from '../node/store/pruneSettingsSource';
import type { SessionRow } from '../node/store/sessionRows';
import type { SessionSettings } from '../node/store/sessionSettings';
import type { DiscoveryReport, IndexState, SessionStore } from '../node/store/sessionStore';
import type { HistoryCosts } from '../node/history/historyCostsReport';
import type { AccountsDue } from '../node/history/historyCosts';
import type { SearchOptions, SessionHits } from '../node/history/historySearch';
import { Disposable } from './dispose';
import { fileWorkspaceFolders } from './sessionLocator';

/** A path that is not one of the listed sessions: nothing reads it (a FIFO, a huge file, any path a link names). */
export class UnlistedSessionError extends Error {
	constructor(readonly path: string) {
		super(`${path} is not one of the Pi sessions Pi Condense lists, so it is not read.`);
		this.name = 'UnlistedSessionError';
	}
}

export abstract class SessionDirectory extends Disposable {
	/** The selected session (whose settings `renderSettings` gives); set by the controller. */
	protected selectedPath: string | undefined;
	/** Used only before the store has read Pi's settings and the session's release. */
	private fallbackSettings: SessionSettings | undefined;

	constructor(protected readonly store: SessionStore, protected readonly logger: vscode.LogOutputChannel) {
		super();
	}

	// ──── Sessions ────

	get discovery(): DiscoveryReport {
		return this.store.discovery;
	}

	/** The listed projects and sessions; in `order` when given (the sidebar's, captured at its last refresh). */
	projects(filter?: string, order?: ListOrder, textMatches?: ReadonlyMap<string, string>): ProjectItem[] {
		return buildSessionList(this.store.rowsList(), {
			workspaceFolders: fileWorkspaceFolders(), filter, textMatches, now: Date.now(), homedir: homedir(), order,
			formatTime: (ms) => new Date(ms).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }),
			// Each row in its own project's state (its project may load another release, or none).
			stateOf: (path) => {
				const settings = this.store.settingsFor(path);
				return settings && pruneStateOf(settings);
			},
		});
	}

	row(path: string): SessionRow | undefined {
		return this.store.row(path);
	}

	/** The listed sessions and messages where the words occur, best first (the session index); undefined without one. */
	async searchHistory(words: string, options: SearchOptions, signal?: AbortSignal): Promise<SessionHits[] | undefined> {
		const hits = await this.store.sessionIndex?.search(words, options, signal);
		return hits?.filter((hit) => this.knowsSession(hit.path));
	}

	/** The costs of every session, from the session index (each request once); undefined without one. */
	historyCosts(options: { readonly timeZone?: string; readonly top?: number }, signal?: AbortSignal): Promise<HistoryCosts | undefined> {
		return this.store.sessionIndex?.costs(options, signal) ?? Promise.resolve(undefined);
	}

	/** The pruned sessions whose prunes the session index does not count yet; [] without one. */
	accountsDue(signal?: AbortSignal): Promise<AccountsDue[]> {
		return this.store.sessionIndex?.accountsDue(signal) ?? Promise.resolve([]);
	}

	/** The settings `path` is rendered with, once its project's release is known (undefined: no project settings). */
	readySettingsFor(path: string): Promise<SessionSettings | undefined> {
		return this.store.readySettingsFor(path);
	}

	/** Keeps a session's prune accounts in the session index (the Costs panel worked them out); nothing without one. */
	keepAccounts(path: string, consumed: number, basis: string, accounts: StoredAccounts): Promise<void> {
		return this.store.sessionIndex?.keepAccounts(path, consumed, basis, accounts) ?? Promise.resolve();
	}

	/** Clear the Session Index: every session forgotten; false when this window has no index. */
	clearIndex(): Promise<boolean> {
		const index = this.store.sessionIndex;
		return index ? index.clear().then(() => true) : Promise.resolve(false);
	}

	/** Stops the session index's build (Cancel): what it read is kept, and the next start goes on from there. */
	cancelIndexBuild(): void {
		this.store.sessionIndex?.cancelBuild();
	}

	/** What the session index does in this window; undefined without one. */
	get indexState(): IndexState | undefined {
		return this.store.sessionIndex?.state;
	}

	/** True for a `.jsonl` file that is one of the listed Pi sessions. */
	knowsSession(path: string): boolean {
		return this.store.row(path) !== undefined;
	}

	/** Throws `UnlistedSessionError` unless `path` is a listed session: every read of a session by path goes through here. */
	protected requireListed(path: string): void {
		if (!this.knowsSession(path)) {
			throw new UnlistedSessionError(path);
		}
	}

	/** Every listed session file. */
	sessionPaths(): string[] {
		return this.store.rowsList().map((row) => row.file.path);
	}

	/** How many listed sessions are known only by their file name so far (name not read yet). */
	unreadTitles(): number {
		let count = 0;
		for (const row of this.store.rowsList()) {
			count += row.summary === undefined ? 1 : 0;
		}
		return count;
	}

	requestDetails(paths: readonly string[]): void {
		this.store.requestDetails(paths);
	}

	/** The session's title as the list shows it (name, else first user message, else file name). */
	titleOf(path: string): string {
		const row = this.store.row(path);
		return row ? sessionTitle(row) : path;
	}

	/** A listed session, read (or kept open); rejects with `UnlistedSessionError` for any other path. */
	async openSession(path: string): Promise<OpenSession> {
		this.requireListed(path);
		return this.store.openSession(path);
	}

	// ──── Pi's contextPrune settings ────

	get settings(): PruneSettings | undefined {
		return this.store.settings;
	}

	/**
	 * What the selected session renders with: the configuration as its project's pi-condense
	 * release reads it (pruning off when Pi has none), and that release.
	 */
	get renderSettings(): SessionSettings {
		return this.renderSettingsFor(this.selectedPath);
	}

	/** The same for any listed session (its project may pin another release). */
	renderSettingsFor(path: string | undefined): SessionSettings {
		return (path === undefined ? undefined : this.store.settingsFor(path)) ?? this.fallback();
	}

	/** `contextPrune` as the selected session's release reads it (what commands show and change). */
	get config(): ContextPruneConfig {
		return this.renderSettings.configured;
	}

	get rules(): ReleaseRules {
		return this.renderSettings.rules;
	}

	/**
	 * Whether the selected session's settings (or, with none selected, the workspace's) and its
	 * pi-condense release are known yet: until they are, no surface says a state it would correct.
	 */
	get stateKnown(): boolean {
		const path = this.selectedPath;
		return (path === undefined ? this.store.scopeSettings() : this.store.settingsFor(path)) !== undefined;
	}

	/** On, off or not installed, for the selected session (or the workspace when none is selected). */
	get pruneState(): PruneState {
		return pruneStateOf(this.renderSettings);
	}

	/** Which pi-condense the selected session's project loads, and where it was found. */
	get releaseResolution(): ReleaseResolution {
		return this.renderSettings.resolution;
	}

	/** Follows a new `piCondense.release` value. */
	setReleaseChoice(value: unknown): void {
		this.store.setReleaseChoice(value);
	}

	/**
	 * With no session selected, or before its release is known: the workspace's settings and release
	 * (resolved at start). Before even those are known (a moment after start): the file's snapshot,
	 * rendered as nothing yet (`stateKnown` is false then, and the status bar shows nothing).
	 */
	private fallback(): SessionSettings {
		const scope = this.store.scopeSettings();
		if (scope) {
			return scope;
		}
		const settings = this.store.settings ?? defaultPruneSettings('');
		const resolution: ReleaseResolution = { kind: 'not-installed', searched: [], warnings: [] };
		if (this.fallbackSettings?.rules !== settings.rules || this.fallbackSettings.configured !== settings.config) {
			this.fallbackSettings = { config: settings.config, configured: settings.config, rules: settings.rules, resolution, problems: settings.problems, ignored: settings.ignored };
		}
		return this.fallbackSettings;
	}

	/** Writes `contextPrune` in Pi's settings.json; refused (throws) in restricted mode. */
	async updatePruneSettings(mutate: PruneMutation): Promise<PruneSettingsWrite> {
		const restricted = restrictedModeRefusal('settings', vscode.workspace.isTrusted);
		if (restricted !== undefined) {
			throw new Error(restricted);
		}
		const written = await this.store.updateSettings(mutate);
		this.logger.info(`saved contextPrune in ${written.path}`);
		return written;
	}
}

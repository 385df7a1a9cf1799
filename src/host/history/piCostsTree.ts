/**
 * The "Pi Costs" view: what every session cost, from the session index (each request once; the index's
 * thread works the report out, so the host only turns it into rows). Worked out while the view is
 * shown: when it opens, when the index is ready after a build, and as sessions grow (at most every few
 * seconds). A session row opens its session. Without an index the view says why.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../base/errorMessage';
import { isWorkStopped, type AdaptiveThrottle, type LatestWins, type WorkScope } from '../../work';
import { CommandId } from '../commandIds';
import { Disposable } from '../dispose';
import type { SessionStore } from '../../node/store/sessionStore';
import type { SessionController } from '../sessionController';
import { piCostsRows, type CostsRow } from './piCostsNodes';

export const COSTS_VIEW_ID = 'piCondense.costs';

/** How often growing sessions work the report out again at most (the index's thread answers in well under this on a large history). */
const REFRESH_MIN_MS = 3_000;
const REFRESH_MAX_MS = 30_000;
/** Sessions the "Most expensive" row lists. */
const TOP_SESSIONS = 10;

export class PiCostsTreeProvider extends Disposable implements vscode.TreeDataProvider<CostsRow> {
	private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<undefined>());
	readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
	readonly view: vscode.TreeView<CostsRow>;
	private rows: readonly CostsRow[] = [];
	/** One work-out at a time; asked while one runs, one more follows it. */
	private readonly runs: LatestWins;
	/** Sessions growing ask at most this often. */
	private readonly changes: AdaptiveThrottle;
	/** Something changed while the view was hidden: work it out when it is shown. */
	private stale = true;

	/** `storeChanges`: the store's changes (a build of the index ended, a session's prunes accounted: the report is worked out again). */
	constructor(work: WorkScope, private readonly controller: SessionController, storeChanges: SessionStore['onDidChange'], private readonly log: (message: string) => void) {
		super();
		const onError = (error: unknown): void => this.log(`Pi Costs: ${errorMessage(error)}`);
		this.runs = work.latestWins((signal) => this.show(signal), onError);
		this.changes = work.throttle(REFRESH_MIN_MS, REFRESH_MAX_MS, () => this.refresh(), onError);
		this.view = this._register(vscode.window.createTreeView(COSTS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true }));
		this._register(this.view.onDidChangeVisibility((event) => event.visible && this.stale && this.refresh()));
		this._register(controller.onDidChangeSessions(() => this.changed()));
		const store = storeChanges((change) => ((change.kind === 'index' && change.state.kind === 'ready') || change.kind === 'accounts') && this.changed());
		this._register({ dispose: () => store.dispose() });
	}

	getTreeItem(row: CostsRow): vscode.TreeItem {
		const item = new vscode.TreeItem(row.label, row.children === undefined ? vscode.TreeItemCollapsibleState.None
			: row.expanded === true ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
		item.id = row.id;
		item.iconPath = new vscode.ThemeIcon(row.icon);
		if (row.description !== undefined) {
			item.description = row.description;
		}
		if (row.tooltip !== undefined) {
			item.tooltip = row.tooltip;
		}
		if (row.countsPruning === true) {
			item.command = { command: CommandId.CountPruning, title: 'Count the Pruning of Every Session' };
			item.accessibilityInformation = { label: `${row.label}; counts them`, role: 'treeitem' };
		}
		if (row.sessionPath !== undefined) {
			item.command = { command: CommandId.OpenSession, title: 'Open Session', arguments: [row.sessionPath] };
			item.accessibilityInformation = { label: `${row.label}, ${row.description ?? ''}; opens the session`, role: 'treeitem' };
		}
		return item;
	}

	getChildren(row?: CostsRow): CostsRow[] {
		return [...(row ? row.children ?? [] : this.rows)];
	}

	/** Works the report out now; resolves once the rows show it. */
	refresh(): Promise<void> {
		this.stale = false;
		return this.runs.request('follow');
	}

	/** The rows shown (tests read them). */
	get shownRows(): readonly CostsRow[] {
		return this.rows;
	}

	private changed(): void {
		this.stale = true;
		if (this.view.visible) {
			this.changes.schedule();
		}
	}

	private async show(signal: AbortSignal): Promise<void> {
		this.view.message = this.rows.length === 0 ? 'Working out what every session cost…' : undefined;
		try {
			const costs = await this.controller.historyCosts({ timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone, top: TOP_SESSIONS }, signal);
			if (!costs) {
				this.rows = [];
				this.view.message = 'The costs of every session come from the session index, which is off in this window (Show Status says why).';
			} else {
				const names = new Map(this.controller.projects().map((project) => [project.cwd, project.label]));
				this.rows = piCostsRows(costs, { project: (cwd) => names.get(cwd) ?? cwd, session: (path) => this.controller.knowsSession(path) ? this.controller.titleOf(path) : undefined });
				this.view.message = costs.report.sessions === 0 ? 'No session has recorded any usage yet.' : undefined;
			}
			this._onDidChangeTreeData.fire(undefined);
		} catch (error) {
			if (!isWorkStopped(error)) {
				this.view.message = `Could not work the costs out: ${errorMessage(error)}`;
				throw error;
			}
		}
	}
}

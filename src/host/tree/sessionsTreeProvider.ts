/**
 * The "Pi Sessions" view: projects → sessions, live. Node objects are kept per id and updated in
 * place, so a refresh fires only the nodes that changed and VS Code keeps expansion and selection.
 * Summaries and reclaim figures are asked for when a project's sessions are shown.
 */
import * as vscode from 'vscode';
import { captureOrder, type ListOrder, type ProjectItem, type SessionItem } from '../../engine/views';
import { Disposable } from '../dispose';
import type { ExtensionSettings } from '../extensionConfig';
import type { LiveMarks } from '../live/liveMarks';
import type { LatestWins, WorkScope } from '../../work';
import type { SessionController } from '../sessionController';
import { ProjectNode, projectTreeItem, SessionNode, sessionTreeItem, type SessionsNode } from './sessionTreeItems';

export const SESSIONS_VIEW_ID = 'piCondense.sessions';

/** Sessions a filter's full-text search shows at most (best first). */
const FILTER_SEARCH_SESSIONS = 200;

export class SessionsTreeProvider extends Disposable implements vscode.TreeDataProvider<SessionsNode> {
	private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<SessionsNode | SessionsNode[] | undefined>());
	readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
	readonly view: vscode.TreeView<SessionsNode>;
	private readonly projectNodes = new Map<string, ProjectNode>();
	private readonly sessionNodes = new Map<string, SessionNode>();
	private roots: ProjectNode[] | undefined;
	private filterText = '';
	/** Sessions the filter's words were found in by the session index, with the matching words; see `setFilter`. */
	private textMatches: ReadonlyMap<string, string> | undefined;
	/** The filter's full-text search: a newer filter stops the one before it; closing the view's scope stops it. */
	private readonly textSearch: LatestWins;
	private lastSelected: string | undefined;
	/**
	 * Each project's and session's last activity when it was first listed: the order of the rows
	 * until the next Refresh, so that nothing moves under the cursor (a summary read after a project
	 * is expanded brings Pi's own times, which used to reorder the projects).
	 */
	private order: { projects: Map<string, number>; sessions: Map<string, number> } | undefined;

	/** Sessions shown as live, to refresh the rows that stop being live. */
	private shownLive = new Set<string>();

	constructor(work: WorkScope, private readonly controller: SessionController, private readonly settings: Pick<ExtensionSettings, 'current' | 'onDidChange'>, private readonly live?: LiveMarks) {
		super();
		this.textSearch = work.latestWins((signal) => this.searchMessages(this.filterText, signal));
		this.view = this._register(vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true }));
		if (live) {
			this._register(live.onDidChange(() => this.refreshLive()));
		}
		this._register(controller.onDidChangeSessions((paths) => (paths ? this.refreshRows(paths) : this.refreshAll())));
		this._register(controller.onDidChangeSelection((path) => this.refreshSelection(path)));
		// Pi's settings or a project's pi-condense changed: each row's figure says it in its new state (and is measured again).
		this._register(controller.onDidChangeSettings(() => this.refreshAll()));
		this._register(settings.onDidChange(({ current, previous }) => current.sessionRowWidth !== previous.sessionRowWidth && this.refreshAll()));
		this._register(this.view.onDidChangeVisibility((event) => event.visible && this.updateMessage()));
	}

	/** Orders the rows by their activity now (the Refresh command). */
	resetOrder(): void {
		this.order = undefined;
		this.refreshAll();
	}

	get filter(): string {
		return this.filterText;
	}

	setFilter(text: string): void {
		this.filterText = text.trim();
		this.textMatches = undefined;
		if (this.filterText !== '') {
			void this.textSearch.request('restart');
			// Names and first messages are read lazily (when a project is expanded): a filter needs
			// every row's. Rows that arrive later refresh the list through onDidChangeSessions.
			this.controller.requestDetails(this.controller.sessionPaths());
		}
		void vscode.commands.executeCommand('setContext', 'piCondense.sessionsFiltered', this.filterText !== '');
		this.refreshAll();
	}

	/**
	 * The filter is also a full-text search of every message, through the session index: sessions
	 * whose messages hold the words are shown too, with the words found.
	 */
	private async searchMessages(text: string, signal: AbortSignal): Promise<void> {
		try {
			const hits = await this.controller.searchHistory(text, { sessions: FILTER_SEARCH_SESSIONS, messagesPerSession: 1 }, signal);
			if (hits && !signal.aborted && this.filterText === text) {
				this.textMatches = new Map(hits.map((hit) => [hit.path, hit.messages[0]?.snippet?.text ?? '']));
				this.refreshAll();
			}
		} catch (error) {
			// Stopped by a newer filter, or the index failed (the log says so): the names still filter.
			if (signal.aborted) {
				throw error;
			}
		}
	}

	/** The projects and sessions as currently shown (tests read it). */
	shownProjects(): readonly ProjectItem[] {
		return this.ensureRoots().map((node) => node.item);
	}

	async revealSession(path: string): Promise<void> {
		this.ensureRoots();
		const node = this.sessionNodes.get(path);
		if (node) {
			await this.view.reveal(node, { select: true, focus: false, expand: true });
		}
	}

	getChildren(element?: SessionsNode): SessionsNode[] {
		if (!element) {
			return this.ensureRoots();
		}
		if (element.kind === 'session') {
			return [];
		}
		const sessions = element.item.sessions;
		this.controller.requestDetails(sessions.map((session) => session.path));
		return sessions.map((session) => this.sessionNode(session, element));
	}

	getParent(element: SessionsNode): SessionsNode | undefined {
		return element.kind === 'session' ? element.parent : undefined;
	}

	getTreeItem(element: SessionsNode): vscode.TreeItem {
		if (element.kind === 'project') {
			return projectTreeItem(element.item, element.id, element.item.isWorkspace || this.filterText !== '' || (this.roots?.length ?? 0) === 1);
		}
		const path = element.item.path;
		const live = this.live?.forSession(path)?.state;
		if (live) {
			this.shownLive.add(path);
		}
		return sessionTreeItem(element.item, element.id, path === this.controller.selected, live, this.settings.current.sessionRowWidth);
	}

	private ensureRoots(): ProjectNode[] {
		if (this.roots) {
			return this.roots;
		}
		const projects = this.controller.projects(this.filterText, this.order, this.textMatches);
		this.keepOrder(projects);
		this.roots = projects.map((project) => {
			const id = `project:${project.cwd}`;
			let node = this.projectNodes.get(id);
			if (node) {
				node.item = project;
			} else {
				node = new ProjectNode(id, project);
				this.projectNodes.set(id, node);
			}
			for (const session of project.sessions) {
				this.sessionNode(session, node);
			}
			return node;
		});
		this.forgetRemoved(this.roots);
		this.updateMessage();
		return this.roots;
	}

	/** Remembers the activity of what was not listed before, once; later changes of activity move nothing. */
	private keepOrder(projects: readonly ProjectItem[]): void {
		const seen: ListOrder = captureOrder(projects);
		const order = this.order ??= { projects: new Map(), sessions: new Map() };
		for (const [cwd, at] of seen.projects) {
			if (!order.projects.has(cwd)) {
				order.projects.set(cwd, at);
			}
		}
		for (const [path, at] of seen.sessions) {
			if (!order.sessions.has(path)) {
				order.sessions.set(path, at);
			}
		}
	}

	/** Drops the nodes of sessions no longer listed, and of projects left with none (shown or filtered out). */
	private forgetRemoved(roots: readonly ProjectNode[]): void {
		const listed = new Set(this.controller.sessionPaths());
		for (const path of this.sessionNodes.keys()) {
			if (!listed.has(path)) {
				this.sessionNodes.delete(path);
			}
		}
		const liveProjects = new Set([...roots, ...[...this.sessionNodes.values()].map((node) => node.parent)]);
		for (const [id, node] of this.projectNodes) {
			if (!liveProjects.has(node)) {
				this.projectNodes.delete(id);
			}
		}
	}

	/** How many session and project nodes are kept (tests check that removed sessions are forgotten). */
	get nodeCounts(): { readonly sessions: number; readonly projects: number } {
		return { sessions: this.sessionNodes.size, projects: this.projectNodes.size };
	}

	private sessionNode(session: SessionItem, parent: ProjectNode): SessionNode {
		let node = this.sessionNodes.get(session.path);
		if (node) {
			node.item = session;
			node.parent = parent;
		} else {
			node = new SessionNode(`session:${session.path}`, session, parent);
			this.sessionNodes.set(session.path, node);
		}
		return node;
	}

	/** Only the previously and newly selected rows change (their icon). */
	private refreshSelection(path: string | undefined): void {
		const nodes = [this.lastSelected, path].flatMap((p) => (p === undefined ? [] : [this.sessionNodes.get(p)]));
		this.lastSelected = path;
		const known = nodes.filter((node): node is SessionNode => node !== undefined);
		if (known.length > 0) {
			this._onDidChangeTreeData.fire(known);
		}
	}

	/** The rows that are live, or were: their mark, description and tooltip change. */
	private refreshLive(): void {
		const live = this.live;
		if (!live) {
			return;
		}
		const nowLive = new Set([...this.sessionNodes.keys()].filter((path) => live.forSession(path) !== undefined));
		const nodes = [...new Set([...this.shownLive, ...nowLive])].flatMap((path) => {
			const node = this.sessionNodes.get(path);
			return node ? [node] : [];
		});
		this.shownLive = nowLive;
		if (nodes.length > 0) {
			this._onDidChangeTreeData.fire(nodes);
		}
	}

	private refreshAll(): void {
		this.roots = undefined;
		this._onDidChangeTreeData.fire(undefined);
	}

	/** Rows changed: refresh those sessions, or their project when its rows' order or labels changed. */
	private refreshRows(paths: readonly string[]): void {
		// A sibling's label changes too when a title arrives that another session of the project shares.
		const siblings = (node: ProjectNode): string => node.item.sessions.map((session) => `${session.path}\t${session.label}`).join('\n');
		const before = new Map(this.roots?.map((node) => [node.id, siblings(node)]));
		const previousRoots = this.roots?.map((node) => node.id).join('\n');
		this.roots = undefined;
		const roots = this.ensureRoots();
		if (roots.map((node) => node.id).join('\n') !== previousRoots) {
			this._onDidChangeTreeData.fire(undefined);
			return;
		}
		const changed = new Set<SessionsNode>();
		for (const path of paths) {
			const node = this.sessionNodes.get(path);
			if (!node) {
				continue;
			}
			changed.add(siblings(node.parent) === before.get(node.parent.id) ? node : node.parent);
		}
		if (changed.size > 0) {
			this._onDidChangeTreeData.fire([...changed]);
		}
	}

	/** What the filter shows, and that more may match while names are still being read. */
	private filterMessage(count: number): string {
		const unread = this.controller.unreadTitles();
		const shown = count === 0 ? `No session matches "${this.filterText}"${unread > 0 ? ' so far' : ''}.` : `Filtered by "${this.filterText}": ${count} session${count === 1 ? '' : 's'}.`;
		return unread > 0 ? `${shown} Reading the names of ${unread} more session${unread === 1 ? '' : 's'}…` : shown;
	}

	private updateMessage(): void {
		const count = this.roots?.reduce((sum, node) => sum + node.item.sessions.length, 0) ?? 0;
		const discovery = this.controller.discovery;
		this.view.message = this.filterText === '' ? undefined : this.filterMessage(count);
		const searched = discovery.searched.map((folder) => `${folder.root.path}${folder.exists ? '' : ' (missing)'}`);
		this.view.description = count === 0 && this.filterText === '' && discovery.done ? searched.join(', ') : undefined;
		void vscode.commands.executeCommand('setContext', 'piCondense.discoveryDone', discovery.done);
	}
}

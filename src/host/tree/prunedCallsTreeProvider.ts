/**
 * The "Pruned Calls" view of the selected session: problems, pending batches, summaries → their
 * tool calls (`tN`), compressed chains (`bN`) → refs, dedup aliases, spilled outputs. Rebuilt from
 * the session's insight when it changes; only rows that changed are refreshed, ids stay stable so
 * expansion survives, and `getParent` lets commands reveal a ref.
 */
import * as vscode from 'vscode';
import { buildPrunedCallsSteps } from '../../engine/views';
import type { LatestWins, WorkScope } from '../../work';
import { errorMessage } from '../../base/errorMessage';
import { Disposable } from '../dispose';
import type { SessionController } from '../sessionController';
import { expandSteps, PrunedTreeNode, syncNodesSteps } from './prunedCallsNodes';
import { prunedTreeItem } from './prunedTreeItem';

export const PRUNED_CALLS_VIEW_ID = 'piCondense.prunedCalls';

export class PrunedCallsTreeProvider extends Disposable implements vscode.TreeDataProvider<PrunedTreeNode> {
	private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<PrunedTreeNode | PrunedTreeNode[] | undefined>());
	readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
	readonly view: vscode.TreeView<PrunedTreeNode>;
	private readonly byId = new Map<string, PrunedTreeNode>();
	private roots: PrunedTreeNode[] = [];
	private shownSession: string | undefined;
	/** Rebuilds: a newer one stops the one under way (its rows would be out of date at once). */
	private readonly rebuilds: LatestWins;

	/** `work` is its own scope: closing it stops a rebuild under way. */
	constructor(private readonly work: WorkScope, private readonly controller: SessionController, logger: vscode.LogOutputChannel) {
		super();
		this.rebuilds = work.latestWins((signal) => this.rebuildSliced(signal), (error) => logger.error(`Pruned Calls: ${errorMessage(error)}`));
		this.view = this._register(vscode.window.createTreeView(PRUNED_CALLS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true }));
		this._register(controller.onDidChangeSelection(() => this.rebuild()));
		this._register(controller.onDidChangeSelectedSession(() => this.rebuild()));
		// The title (name or first message) arrives with the background summary.
		this._register(controller.onDidChangeSessions((paths) => {
			if (this.shownSession !== undefined && (!paths || paths.includes(this.shownSession))) {
				this.view.description = controller.titleOf(this.shownSession);
			}
		}));
		this.rebuild();
	}

	/** The rows as currently built (tests read them). */
	get rootNodes(): readonly PrunedTreeNode[] {
		return this.roots;
	}

	async getChildren(element?: PrunedTreeNode): Promise<PrunedTreeNode[]> {
		return element ? this.expand(element) : this.roots;
	}

	getParent(element: PrunedTreeNode): PrunedTreeNode | undefined {
		return element.parent;
	}

	getTreeItem(element: PrunedTreeNode): vscode.TreeItem {
		return prunedTreeItem(element);
	}

	/**
	 * Finds the row of a `tN`, `bN`, tool-call id or alias id (the summarized call first), building
	 * only the rows on its way (see `Expandable.holds`).
	 */
	async findRef(ref: string): Promise<PrunedTreeNode | undefined> {
		const found = await this.findAmong(this.roots, ref);
		return found.summarized ?? found.other;
	}

	/** The first summarized call or chain named `ref` among `nodes` and below them, else the first alias or spilled output. */
	private async findAmong(nodes: readonly PrunedTreeNode[], ref: string): Promise<{ summarized?: PrunedTreeNode; other?: PrunedTreeNode }> {
		let other: PrunedTreeNode | undefined;
		for (const node of nodes) {
			const data = node.data;
			if ((data.kind === 'tool' && (data.ref === ref || data.toolCallId === ref)) || (data.kind === 'chain' && data.blockId === ref)) {
				return { summarized: node };
			}
			if (!other && (data.kind === 'alias' || data.kind === 'spilled') && data.toolCallId === ref) {
				other = node;
			}
			if ('holds' in data && data.holds(ref)) {
				const below = await this.findAmong(await this.expand(node), ref);
				if (below.summarized) {
					return below;
				}
				other ??= below.other;
			}
		}
		return { other };
	}

	async reveal(ref: string): Promise<boolean> {
		const node = await this.findRef(ref);
		if (node) {
			await this.view.reveal(node, { select: true, focus: true, expand: true });
		}
		return node !== undefined;
	}

	/** The children of `node`, built in slices the first time it is expanded. */
	private async expand(node: PrunedTreeNode): Promise<PrunedTreeNode[]> {
		if (node.children !== undefined) {
			return node.children;
		}
		const data = node.data;
		const children = await this.work.sliced(expandSteps(node, this.byId));
		// A rebuild that ran meanwhile may have replaced the row's data or built its children already.
		if (node.data === data && node.children === undefined) {
			node.children = children;
		}
		return node.children ?? children;
	}

	/** Builds the rows in slices; a newer rebuild stops one under way. */
	private rebuild(): void {
		void this.rebuilds.request('restart');
	}

	private async rebuildSliced(signal: AbortSignal): Promise<void> {
		const path = this.controller.selected;
		const insight = this.controller.insight();
		if (path !== this.shownSession) {
			this.byId.clear();
			this.roots = [];
			this.shownSession = path;
		}
		this.view.description = path === undefined ? undefined : this.controller.titleOf(path);
		if (!path || !insight) {
			// Without a session the view's welcome content (with its Open Session button) shows instead.
			this.view.message = path ? 'Reading the session…' : undefined;
			this.roots = [];
			this.byId.clear();
			this._onDidChangeTreeData.fire(undefined);
			return;
		}
		const data = await this.work.sliced(buildPrunedCallsSteps(insight, (ms) => new Date(ms).toLocaleString()), signal);
		const result = await this.work.sliced(syncNodesSteps(this.roots, data, path, this.byId), signal);
		this.roots = result.roots;
		this.view.message = data.length === 0 ? 'No pruned tool calls found in this session.' : undefined;
		if (result.rootsChanged) {
			this._onDidChangeTreeData.fire(undefined);
		} else if (result.changed.length > 0) {
			this._onDidChangeTreeData.fire(result.changed);
		}
	}
}

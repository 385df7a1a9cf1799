/**
 * The rows of the "Pi Sessions" view: its nodes (kept per id by the provider, so VS Code keeps
 * expansion and selection) and how a project's and a session's row look. Only our command, the
 * session's own texts as plain text, and theme icons and colours.
 */
import * as vscode from 'vscode';
import { liveLine, type BridgeState } from '../../engine/live';
import { fitSessionLabel, joinMarkdown, md, type ProjectItem, type SessionItem } from '../../engine/views';
import { CommandId } from '../commandIds';
import { markdownString } from '../ui/safeUi';

export class ProjectNode {
	readonly kind = 'project';
	constructor(readonly id: string, public item: ProjectItem) {}
}

export class SessionNode {
	readonly kind = 'session';
	constructor(readonly id: string, public item: SessionItem, public parent: ProjectNode) {}
}

export type SessionsNode = ProjectNode | SessionNode;

/** A project's row: expanded when it is the workspace's, when a filter is on, or when it is the only one. */
export function projectTreeItem(project: ProjectItem, id: string, expand: boolean): vscode.TreeItem {
	const item = new vscode.TreeItem(project.label, expand ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
	item.id = id;
	item.description = `${project.description} · ${project.sessions.length}`;
	item.tooltip = project.cwd;
	item.iconPath = new vscode.ThemeIcon(project.isWorkspace ? 'root-folder' : 'folder');
	item.contextValue = project.isWorkspace ? 'project:workspace' : 'project';
	return item;
}

/**
 * A session's row: selected or not, and live when a Pi holds it (`live`: that Pi's state). Its title is
 * shortened to keep the figures in a row of `rowWidth` characters (0: never); the tooltip and what a
 * screen reader says have it whole.
 */
export function sessionTreeItem(session: SessionItem, id: string, selected: boolean, live: BridgeState | undefined, rowWidth: number): vscode.TreeItem {
	const description = live ? session.liveDescription : session.description;
	const item = new vscode.TreeItem(fitSessionLabel(session, description, rowWidth), vscode.TreeItemCollapsibleState.None);
	item.id = id;
	item.description = description;
	item.accessibilityInformation = { label: `${session.label}, ${live ? session.liveDescription : session.spokenDescription}${selected ? ', selected' : ''}`, role: 'treeitem' };
	const liveDetail = live ? [md`${liveLine(live)}`] : [];
	item.tooltip = markdownString(joinMarkdown([md`**${session.label}**${selected ? ' · selected' : ''}`, ...liveDetail, ...session.details.map((line) => md`${line}`)], '\n\n'));
	item.iconPath = selected
		? new vscode.ThemeIcon('pass-filled', new vscode.ThemeColor('charts.green'))
		: live ? new vscode.ThemeIcon('radio-tower', new vscode.ThemeColor('charts.blue')) : new vscode.ThemeIcon('comment-discussion');
	item.contextValue = `${selected ? 'session:selected' : 'session'}${live ? ':live' : ''}`;
	// A click (or Enter) selects the session and, unless piCondense.sessions.openPreviewOnClick is off, shows its preview.
	item.command = { command: CommandId.SelectSession, title: 'Select Session', arguments: [session.path, 'click'] };
	return item;
}

/**
 * The `TreeItem` of each kind of "Pruned Calls" row: icon, tooltip with the head of the raw output
 * (in a code block it cannot close) or the summary (without images or HTML),
 * click command and a `contextValue` composed from parts (`tool`, `tool:spilled`, `summary`, …) that
 * the context menus in package.json match.
 */
import * as vscode from 'vscode';
import { codeBlock, type GroupKind, inertMarkdown, joinMarkdown, md, type PrunedNode } from '../../engine/views';
import { CommandId } from '../commandIds';
import { markdownString } from '../ui/safeUi';
import type { PrunedTreeNode } from './prunedCallsNodes';

const { Collapsed, Expanded, None } = vscode.TreeItemCollapsibleState;

const GROUP_ICONS: Record<GroupKind, string> = {
	problems: 'warning',
	pending: 'watch',
	chains: 'fold',
	aliases: 'references',
	spilled: 'file-binary',
	edits: 'edit',
};

export function prunedTreeItem(node: PrunedTreeNode): vscode.TreeItem {
	const data = node.data;
	const item = new vscode.TreeItem(data.label, collapsible(data));
	item.id = node.id;
	item.description = data.description;
	switch (data.kind) {
		case 'group':
			item.iconPath = new vscode.ThemeIcon(GROUP_ICONS[data.group]);
			item.contextValue = `group:${data.group}`;
			break;
		case 'problem':
			item.iconPath = new vscode.ThemeIcon(data.severity, new vscode.ThemeColor(data.severity === 'error' ? 'problemsErrorIcon.foreground' : 'problemsWarningIcon.foreground'));
			item.tooltip = data.line === undefined ? data.label : `${node.sessionPath}:${data.line}\n${data.label}`;
			item.contextValue = data.line === undefined ? 'problem' : 'problem:line';
			if (data.line !== undefined) {
				item.command = { command: CommandId.OpenProblem, title: 'Go to Line', arguments: [node.sessionPath, data.line] };
			}
			break;
		case 'range':
			item.iconPath = new vscode.ThemeIcon('list-flat');
			item.contextValue = 'range';
			break;
		case 'pendingBatch':
			item.iconPath = new vscode.ThemeIcon('layers');
			item.contextValue = 'pendingBatch';
			break;
		case 'pendingCall':
			item.iconPath = new vscode.ThemeIcon('tools');
			item.tooltip = outputTooltip(data.label, data.toolCallId, data.outputHead, 'not summarized yet');
			item.contextValue = 'pendingCall';
			break;
		case 'summary':
			item.iconPath = new vscode.ThemeIcon('note');
			item.tooltip = modelTextTooltip(data.text, data.header);
			item.contextValue = 'summary';
			break;
		case 'tool':
			item.iconPath = data.isError ? new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground')) : new vscode.ThemeIcon('symbol-method');
			item.tooltip = outputTooltip(data.label, data.toolCallId, data.outputHead, data.spilled ? 'spilled: the full output is in the blob file' : undefined);
			item.contextValue = data.spilled ? 'tool:spilled' : 'tool';
			item.command = { command: CommandId.RecoverOutput, title: 'Recover Raw Output', arguments: [node] };
			break;
		case 'chain':
			item.iconPath = new vscode.ThemeIcon('combine');
			item.tooltip = modelTextTooltip(data.bodyText);
			item.contextValue = 'chain';
			break;
		case 'chainRef':
			item.iconPath = new vscode.ThemeIcon('symbol-reference');
			item.contextValue = 'chainRef';
			item.command = { command: CommandId.RevealRef, title: 'Reveal in Pruned Calls', arguments: [data.ref] };
			break;
		case 'alias':
			item.iconPath = new vscode.ThemeIcon('link');
			item.tooltip = `${data.toolCallId} repeated the output of ${data.originalRef ?? data.originalToolCallId}: pi-condense made it an alias instead of summarizing it again.`;
			item.contextValue = 'alias';
			item.command = { command: CommandId.RevealRef, title: 'Reveal Original', arguments: [data.originalRef ?? data.originalToolCallId] };
			break;
		case 'contextEdit':
			item.iconPath = new vscode.ThemeIcon(data.omitted ? 'eye-closed' : 'edit');
			item.tooltip = editTooltip(data.label, data.entryText, data.sentText);
			item.contextValue = data.line === undefined ? 'contextEdit' : 'contextEdit:line';
			if (data.line !== undefined) {
				item.command = { command: CommandId.OpenProblem, title: 'Go to Entry', arguments: [node.sessionPath, data.line] };
			}
			break;
		case 'spilled':
			item.iconPath = new vscode.ThemeIcon('file');
			item.tooltip = outputTooltip(data.label, data.toolCallId, data.outputHead, 'spilled to a blob file; the head is kept inline');
			item.contextValue = 'spilled';
			item.command = { command: CommandId.OpenBlob, title: 'Open Spilled Output File', arguments: [node] };
			break;
	}
	return item;
}

function collapsible(data: PrunedNode): vscode.TreeItemCollapsibleState {
	if (!('childCount' in data) || data.childCount === 0) {
		return None;
	}
	return data.kind === 'group' && data.group === 'problems' ? Expanded : Collapsed;
}

function outputTooltip(label: string, toolCallId: string, head: string, note: string | undefined): vscode.MarkdownString {
	return markdownString(md`${label}\n\nid ${toolCallId}${note ? ` · ${note}` : ''}${codeBlock(head === '' ? '(empty output)' : head, 'text')}`);
}

/** Both sides of a context edit (session text, in code blocks it cannot close). */
function editTooltip(label: string, entryText: string, sentText: string | undefined): vscode.MarkdownString {
	const entry = codeBlock(entryText === '' ? '(empty)' : entryText, 'text');
	const sent = sentText === undefined ? md`Pi leaves it out of what the model is sent.` : md`Pi sends instead:${codeBlock(sentText === '' ? '(empty)' : sentText, 'text')}`;
	return markdownString(md`${label}

The session entry says:${entry}${sent}`);
}

/** A summary or chain body (model output): markdown without images or HTML, cut at 2,000 characters; under pi-condense's header of it. */
function modelTextTooltip(text: string, header?: string): vscode.MarkdownString {
	const body = inertMarkdown(text.length > 2000 ? `${text.slice(0, 2000)}\n\n…` : text);
	return markdownString(header === undefined ? body : joinMarkdown([md`**${header}**`, body], '\n\n'));
}

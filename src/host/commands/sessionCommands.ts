/**
 * Commands about sessions: select one (a tree click, which also opens its preview), pick one from the palette, open its raw
 * `.jsonl`, refresh, filter the list, say where sessions are searched, and `/pruner tree` (show the
 * Pruned Calls view).
 */
import * as vscode from 'vscode';
import { CONFIRMED, requireSession, type CommandContext } from './commandContext';
import { CommandId } from '../commandIds';
import { PRUNED_CALLS_VIEW_ID } from '../tree/prunedCallsTreeProvider';
import { SESSIONS_VIEW_ID } from '../tree/sessionsTreeProvider';
import { errorMessage } from '../../base/errorMessage';
import { registerCommand, showError, showInfo, showInputBox, showQuickPick, showWarning } from '../ui/safeUi';

export function registerSessionCommands(context: CommandContext): vscode.Disposable[] {
	const { controller, sessionsTree } = context;
	return [
		registerCommand(CommandId.SelectSession, async (path?: string, how?: unknown) => {
			if (typeof path === 'string') {
				await selectAndReport(context, path);
				// A click on a row shows what the model is sent (piCondense.sessions.openPreviewOnClick); the tree keeps the keyboard.
				if (how === 'click' && context.settings.current.openPreviewOnClick && controller.selected === path) {
					await vscode.commands.executeCommand(CommandId.OpenPreview, { preserveFocus: true });
				}
			}
			return controller.selected;
		}),
		registerCommand(CommandId.OpenSession, async (path?: string) => {
			const chosen = typeof path === 'string' ? path : await pickSession(context);
			if (chosen === undefined) {
				return undefined;
			}
			// The keyboard moves to Pruned Calls now, while the pick is still what the user is doing: moved once the
			// session is read (seconds for a large one), it would leave whatever they turned to meanwhile, such as
			// the Command Palette they opened, which closes when it loses the focus (and a command they chose then is lost).
			const selected = selectAndReport(context, chosen);
			await vscode.commands.executeCommand(`${PRUNED_CALLS_VIEW_ID}.focus`);
			await sessionsTree.revealSession(chosen).catch(() => undefined);
			await selected;
			return chosen;
		}),
		registerCommand(CommandId.OpenSessionFile, async (argument?: unknown) => {
			const path = sessionPathOf(argument) ?? requireSession(context, 'open its file');
			if (path !== undefined) {
				await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: true });
			}
			return path;
		}),
		registerCommand(CommandId.Refresh, async () => {
			await controller.restart();
			sessionsTree.resetOrder();
			return controller.projects().reduce((sum, project) => sum + project.sessions.length, 0);
		}),
		registerCommand(CommandId.FilterSessions, async (text?: string) => {
			const value = typeof text === 'string' ? text : await showInputBox({
				title: 'Pi Condense: filter sessions',
				prompt: 'Shows sessions whose name, first message, project folder or file name contains this text, or any of whose messages holds these words (the session index).',
				value: sessionsTree.filter,
			});
			if (value !== undefined) {
				sessionsTree.setFilter(value);
			}
			return sessionsTree.filter;
		}),
		registerCommand(CommandId.ClearSessionFilter, () => sessionsTree.setFilter('')),
		registerCommand(CommandId.SearchSessions, async (words?: unknown) => {
			const found = await context.sessionSearch.pick(typeof words === 'string' ? words : undefined);
			if (found?.path === undefined) {
				return undefined;
			}
			if (found.line === undefined) {
				// A session chosen by its name: as Open Session… does.
				await vscode.commands.executeCommand(CommandId.OpenSession, found.path);
				return { path: found.path, entryId: undefined, line: undefined };
			}
			await selectAndReport(context, found.path);
			if (controller.selected === found.path) {
				await vscode.commands.executeCommand(CommandId.OpenPreview, { preserveFocus: false });
				if (found.entryId !== undefined) {
					await vscode.commands.executeCommand(CommandId.RevealInPreview, { entryId: found.entryId });
				}
			}
			return { path: found.path, entryId: found.entryId, line: found.line };
		}),
		registerCommand(CommandId.RenameSession, async (argument?: unknown, name?: unknown) => {
			const path = sessionPathOf(argument) ?? requireSession(context, 'rename it');
			return path === undefined ? undefined : context.renamer.rename(path, typeof name === 'string' ? name : undefined);
		}),
		registerCommand(CommandId.ClearSessionIndex, async (argument?: unknown) => {
			if (controller.indexState === undefined) {
				void showInfo('The session index is off in this window: there is nothing to clear. See piCondense.sessionIndex.enabled.');
				return false;
			}
			if (argument !== CONFIRMED && await showWarning('Clear the session index?', { modal: true, detail: CLEAR_INDEX_DETAIL }, CLEAR_INDEX) !== CLEAR_INDEX) {
				return undefined;
			}
			if (!await controller.clearIndex()) {
				void showInfo('The session index is off in this window: there is nothing to clear. See piCondense.sessionIndex.enabled.');
				return false;
			}
			void showInfo('The session index was cleared: it holds no session now. It is built again at the next start unless piCondense.sessionIndex.enabled is off.');
			return true;
		}),
		registerCommand(CommandId.CountPruning, () => context.pruningCounter.run()),
		registerCommand(CommandId.ShowSearchedFolders, () => showSearchedFolders(context)),
		registerCommand(CommandId.ShowTree, async () => {
			await vscode.commands.executeCommand(`${PRUNED_CALLS_VIEW_ID}.focus`);
			return controller.selected;
		}),
	];
}

const CLEAR_INDEX = 'Clear Index';
const CLEAR_INDEX_DETAIL = 'Everything the index keeps of your sessions (titles, counts, recorded usage, prune accounts and the words search finds) is deleted. '
	+ 'The index is shared by every VS Code window and the pi-condense command line on this machine. Your session files are not touched, '
	+ 'and the index is built again from them at the next start unless piCondense.sessionIndex.enabled is off.';

async function selectAndReport(context: CommandContext, path: string): Promise<void> {
	try {
		await context.controller.select(path);
	} catch (error) {
		void showError(`Pi Condense could not read ${path}: ${errorMessage(error)}`);
	}
}

async function pickSession(context: CommandContext): Promise<string | undefined> {
	const items = context.controller.projects().flatMap((project) => [
		{ label: project.label, kind: vscode.QuickPickItemKind.Separator, path: undefined as string | undefined },
		...project.sessions.map((session) => ({ label: session.label, description: session.description, detail: session.path, path: session.path })),
	]);
	const picked = await showQuickPick(items, { title: 'Pi Condense: open session', matchOnDescription: true, matchOnDetail: true });
	return picked?.path;
}

/** A session path from a tree node (`{ item: { path } }`) or a string. */
function sessionPathOf(argument: unknown): string | undefined {
	if (typeof argument === 'string') {
		return argument;
	}
	if (typeof argument === 'object' && argument !== null && 'item' in argument) {
		const item = (argument).item;
		if (typeof item === 'object' && item !== null && 'path' in item && typeof item.path === 'string') {
			return item.path;
		}
	}
	return undefined;
}

function showSearchedFolders(context: CommandContext): string {
	const discovery = context.controller.discovery;
	const lines = [
		`Pi agent directory: ${discovery.locations?.agentDir ?? '(not located yet)'}`,
		...discovery.searched.map((folder) => `Searched ${folder.root.path} (${folder.root.layout === 'flat' ? 'session files directly inside' : 'one folder per project'}; from ${folder.root.source}): ${folder.exists ? `${folder.fileCount} file(s)` : 'does not exist'}${folder.error ? `; ${folder.error}` : ''}`),
		...(discovery.locations?.notes ?? []),
		...(discovery.unlisted.length > 0 ? [`${discovery.unlisted.length} .jsonl file(s) are not Pi sessions (see the log).`] : []),
		'Change it with the piCondense.agentDir setting, or $PI_CODING_AGENT_DIR (and $PI_CODING_AGENT_SESSION_DIR) in the environment VS Code starts with.',
	];
	const text = lines.join('\n');
	context.logger.info(text);
	void showInfo(lines.slice(0, 2).join(' · '), 'Choose Agent Directory', 'Show Log').then((choice) => {
		if (choice === 'Choose Agent Directory') {
			void vscode.commands.executeCommand('workbench.action.openSettings', 'piCondense.agentDir');
		} else if (choice === 'Show Log') {
			context.logger.show(true);
		}
	});
	void vscode.commands.executeCommand(`${SESSIONS_VIEW_ID}.focus`);
	return text;
}

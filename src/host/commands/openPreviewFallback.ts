/**
 * `piCondense.openPreview` until the context preview panel registers it: focuses the Pruned Calls
 * view (and reveals a ref when one is given). The preview replaces this file's registration.
 */
import * as vscode from 'vscode';
import { CommandId } from './commandIds';
import type { CommandContext } from './commandContext';
import { refTarget } from './recoveryCommands';
import { PRUNED_CALLS_VIEW_ID } from '../tree/prunedCallsTreeProvider';

export function registerOpenPreviewFallback(context: CommandContext): vscode.Disposable {
	return vscode.commands.registerCommand(CommandId.OpenPreview, async (argument?: unknown) => {
		const target = refTarget(argument, context.controller.selected);
		if (target) {
			return vscode.commands.executeCommand(CommandId.RevealRef, target);
		}
		await vscode.commands.executeCommand(`${PRUNED_CALLS_VIEW_ID}.focus`);
		return undefined;
	});
}

/**
 * A configured quick pick as a promise: the accepted item, or undefined when it is dismissed. The
 * pick is disposed once hidden. (`showQuickPick` cannot fill its items in later or preselect one.)
 */
import type * as vscode from 'vscode';

export function pickOne<T extends vscode.QuickPickItem>(quickPick: vscode.QuickPick<T>): Promise<T | undefined> {
	return new Promise((resolve) => {
		quickPick.onDidAccept(() => {
			resolve(quickPick.selectedItems[0]);
			quickPick.hide();
		});
		quickPick.onDidHide(() => {
			resolve(undefined);
			quickPick.dispose();
		});
		quickPick.show();
	});
}

/**
 * Registers every command of the extension (ids in `commandIds.ts`).
 */
import type * as vscode from 'vscode';
import type { CommandContext } from './commandContext';
import { registerFlushCommands } from './flushCommands';
import { registerModelCommand } from './modelPicker';
import { registerPrunerCommands } from './prunerCommands';
import { registerRecoveryCommands } from './recoveryCommands';
import { registerReleaseCommands } from './releaseCommands';
import { registerSessionCommands } from './sessionCommands';
import { registerSettingsEditor } from './settingsEditor';

export function registerCommands(context: CommandContext): vscode.Disposable[] {
	return [
		...registerPrunerCommands(context),
		registerModelCommand(context),
		registerSettingsEditor(context),
		...registerSessionCommands(context),
		...registerRecoveryCommands(context),
		...registerFlushCommands(context),
		...registerReleaseCommands(context),
	];
}

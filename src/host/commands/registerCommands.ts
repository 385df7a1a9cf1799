/**
 * Registers the palette and view commands of the extension (ids in `commandIds.ts`). The context
 * preview registers its own two (Open Context Preview, Reveal in Context Preview) in
 * `preview/contextPreview.ts`, next to the panel they drive.
 */
import type * as vscode from 'vscode';
import type { CommandContext } from './commandContext';
import { registerFlushCommands } from './flushCommands';
import { registerKeyCommands } from './keyCommands';
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
		...registerKeyCommands(context),
		...registerReleaseCommands(context),
	];
}

/**
 * What the command handlers need, handed over by the composition root, and the few helpers they
 * share: acting on the selected session, saving a `contextPrune` change, and reporting errors in
 * words that say what happened and what to do.
 */
import * as vscode from 'vscode';
import { releaseDefaults, setConfigKeys } from '../../engine/config';
import type { LoginShellState } from '../../engine/release';
import type { ModelChoice } from '../../node/llm/models';
import type { PruneRequests } from '../flush/pruneRequests';
import type { StrandedEntriesMonitor } from '../flush/strandedEntriesMonitor';
import type { SetUpKeys } from '../flush/setUpKeys';
import type { UndoPrunes } from '../flush/undoPrunes';
import { SettingsWriteError } from '../../node/settings/updatePruneSettings';
import type { ExtensionSettings } from '../extensionConfig';
import type { SessionController } from '../sessionController';
import type { PrunedCallsTreeProvider } from '../tree/prunedCallsTreeProvider';
import type { SessionsTreeProvider } from '../tree/sessionsTreeProvider';
import type { SessionSearch } from '../history/sessionSearch';
import type { PruningCounter } from '../history/pruningCounter';
import type { SessionRenamer } from '../flush/sessionRenamer';
import { errorMessage } from '../../base/errorMessage';
import { showError, showInfo, showWarning } from '../ui/safeUi';

/** The argument that runs a command without its confirmation (tests; a caller that asked already). */
export const CONFIRMED = 'confirmed';

export interface CommandContext {
	readonly controller: SessionController;
	/** The `piCondense.*` settings: a command reads `settings.current` when it runs. */
	readonly settings: ExtensionSettings;
	readonly logger: vscode.LogOutputChannel;
	readonly sessionsTree: SessionsTreeProvider;
	readonly prunedTree: PrunedCallsTreeProvider;
	/** The models that have credentials, listed by the pi-ai worker (never on activation). */
	readonly listModels: (agentDir: string) => Promise<ModelChoice[]>;
	/** Which pi-ai the summarizer uses (or would use: nothing is loaded for it), for Show Status. */
	readonly summarizerLibrary: () => Promise<string>;
	/** `/pruner now` and `/pruner compact` (in a live Pi's editor, or flushed here). */
	readonly prune: PruneRequests;
	/** The records of our writes: Undo Last Prune. */
	readonly undo: UndoPrunes;
	/** The keys "Set up a key…" saved in auth.json: Remove the Key Set up by Pi Condense. */
	readonly keys: SetUpKeys;
	/** Stops watching for stranded entries that an undo removed. */
	readonly monitor: StrandedEntriesMonitor;
	/** Rename Session… (a session_info entry, as Pi's /name writes it; undoable). */
	readonly renamer: SessionRenamer;
	/** Count the Pruning of Every Session (the Pi Costs view's pruned sessions not counted yet). */
	readonly pruningCounter: PruningCounter;
	/** Search Pi Sessions… (the session index). */
	readonly sessionSearch: SessionSearch;
	/** The user's login shell's PATH as far as it is known (Pi's command line for a terminal). */
	readonly loginShell: () => LoginShellState;
	/** Show Status's document is read again, when it is open. */
	readonly refreshStatusDocument: () => void;
}

/**
 * The selected session's path, or undefined after telling the user to select one. A selection not in
 * the list now (Refresh reads the list again before it selects again; a deleted file leaves the list
 * first) is said as such: reading it would fail with "not one of the Pi sessions Pi Condense lists".
 */
export function requireSession(context: CommandContext, action: string): string | undefined {
	const path = context.controller.selected;
	const listed = path !== undefined && context.controller.knowsSession(path);
	if (!listed) {
		const why = path === undefined ? 'select a session in Pi Sessions first'
			: 'the selected session is not in Pi Sessions now (the list is being read again, or its file is gone): try again in a moment, or select a session';
		void showWarning(`Pi Condense: ${why} to ${action}.`, 'Show Sessions')
			.then((choice) => choice && vscode.commands.executeCommand('piCondense.sessions.focus'));
		return undefined;
	}
	return path;
}

/**
 * Sets one `contextPrune` key (a dotted path) in Pi's settings.json and says `message` when it is
 * saved. Returns the message shown, or undefined when saving failed (the user was told why).
 */
export function saveSetting(context: CommandContext, key: string, value: unknown, message: string): Promise<string | undefined> {
	return saveSettings(context, [{ key, value }], message);
}

export interface SettingChange {
	readonly key: string;
	readonly value: unknown;
}

/** Several keys in one write. */
export async function saveSettings(context: CommandContext, changes: readonly SettingChange[], message: string): Promise<string | undefined> {
	try {
		await context.controller.updatePruneSettings((raw) => setConfigKeys(raw, changes, releaseDefaults(context.controller.rules)));
	} catch (error) {
		showSettingsError(context, error);
		return undefined;
	}
	for (const change of changes) {
		context.logger.info(`contextPrune.${change.key} = ${JSON.stringify(change.value)}`);
	}
	void showInfo(message);
	return message;
}

function showSettingsError(context: CommandContext, error: unknown): void {
	const message = errorMessage(error);
	context.logger.error(`saving contextPrune: ${message}`);
	const path = error instanceof SettingsWriteError ? error.path : undefined;
	void showError(`Pi Condense could not save the setting: ${message}`, ...(path ? ['Open settings.json'] : []))
		.then((choice) => {
			if (choice && path) {
				void vscode.window.showTextDocument(vscode.Uri.file(path));
			}
		});
}

/** Shows a long text: its first line as a notification, the whole of it in the log. */
export function showReport(context: CommandContext, text: string, oneLine: string, action?: { readonly title: string; readonly command: string }): string {
	context.logger.info(text);
	const actions = action ? [action.title, 'Show Log'] : ['Show Log'];
	void showInfo(oneLine, ...actions).then((choice) => {
		if (choice === 'Show Log') {
			context.logger.show(true);
		} else if (choice !== undefined && action) {
			void vscode.commands.executeCommand(action.command);
		}
	});
	return text;
}

/** `a:\n  b:  1\n  c:  2` → `a: b: 1 · c: 2`. */
export function flattenReport(text: string): string {
	const [first, ...rest] = text.split('\n').map((line) => line.trim().replace(/\s{2,}/g, ' '));
	return rest.length === 0 ? first ?? '' : `${first} ${rest.join(' · ')}`;
}

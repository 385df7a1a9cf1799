/**
 * The VS Code settings of the extension (`piCondense.*`), read in one place. The pruning options
 * are not here: they stay in Pi's `contextPrune` and are edited through the settings command.
 */
import * as vscode from 'vscode';

export const CONFIG_SECTION = 'piCondense';

export interface ExtensionConfig {
	/** `piCondense.agentDir`: overrides `$PI_CODING_AGENT_DIR` / `~/.pi/agent`; empty for none. */
	readonly agentDir: string;
	/** `piCondense.autoFlush.onIdle`: summarize pending batches of idle sessions by itself (opt-in). */
	readonly autoFlushOnIdle: boolean;
	/** `piCondense.statusBar.enabled`: show the prune status item. */
	readonly statusBarEnabled: boolean;
}

export function readExtensionConfig(): ExtensionConfig {
	const section = vscode.workspace.getConfiguration(CONFIG_SECTION);
	return {
		agentDir: section.get<string>('agentDir', '').trim(),
		autoFlushOnIdle: section.get<boolean>('autoFlush.onIdle', false),
		statusBarEnabled: section.get<boolean>('statusBar.enabled', true),
	};
}

/** Fires `listener` with the new settings when any `piCondense.*` setting changes. */
export function onDidChangeExtensionConfig(listener: (config: ExtensionConfig) => void): vscode.Disposable {
	return vscode.workspace.onDidChangeConfiguration((event) => {
		if (event.affectsConfiguration(CONFIG_SECTION)) {
			listener(readExtensionConfig());
		}
	});
}

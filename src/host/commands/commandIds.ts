/**
 * Every command id of the extension, and the palette facts of each: title, icon and the `/pruner`
 * subcommand it mirrors. package.json's `contributes.commands` and the README's command table are
 * checked against this list by a unit test. No `vscode` import: tests read it directly.
 */

export const CommandId = {
	// ──── /pruner subcommands ────
	Settings: 'piCondense.settings',
	Enable: 'piCondense.enable',
	Disable: 'piCondense.disable',
	Status: 'piCondense.status',
	Stats: 'piCondense.stats',
	SelectModel: 'piCondense.selectModel',
	SelectThinking: 'piCondense.selectThinking',
	SelectPruneTrigger: 'piCondense.selectPruneTrigger',
	SelectBatching: 'piCondense.selectBatching',
	ShowTree: 'piCondense.showTree',
	FlushNow: 'piCondense.flushNow',
	Compact: 'piCondense.compact',
	EditProtectedTools: 'piCondense.editProtectedTools',
	EditProtectedPaths: 'piCondense.editProtectedPaths',
	SetMinBatchChars: 'piCondense.setMinBatchChars',
	SetRecoveryGrace: 'piCondense.setRecoveryGrace',
	SetDedup: 'piCondense.setDedup',
	Help: 'piCondense.help',
	// ──── Sessions and recovery ────
	OpenSession: 'piCondense.openSession',
	OpenSessionFile: 'piCondense.openSessionFile',
	Refresh: 'piCondense.refresh',
	FilterSessions: 'piCondense.filterSessions',
	ClearSessionFilter: 'piCondense.clearSessionFilter',
	ShowSearchedFolders: 'piCondense.showSearchedFolders',
	RecoverOutput: 'piCondense.recoverOutput',
	OpenPreview: 'piCondense.openPreview',
	InstallPiCondense: 'piCondense.installPiCondense',
	// ──── Live sessions: the bridge in Pi ────
	ConnectPi: 'piCondense.connectPi',
	DisconnectPi: 'piCondense.disconnectPi',
	OpenLastSent: 'piCondense.openLastSent',
	// ──── Internal (tree clicks, context menus, hover links): hidden from the palette ────
	SelectSession: 'piCondense.selectSession',
	CopyRef: 'piCondense.copyRef',
	OpenSummary: 'piCondense.openSummary',
	OpenBlob: 'piCondense.openBlob',
	RevealRef: 'piCondense.revealRef',
	RevealInPreview: 'piCondense.revealInPreview',
	OpenProblem: 'piCondense.openProblem',
} as const;

export type CommandId = (typeof CommandId)[keyof typeof CommandId];

export interface CommandInfo {
	readonly id: CommandId;
	readonly title: string;
	/** The `/pruner` subcommand it mirrors, if any. */
	readonly pruner?: string;
	readonly icon?: string;
	/** Shown in the palette (category "Pi Condense"); internal commands are not. */
	readonly palette: boolean;
}

export const COMMANDS: readonly CommandInfo[] = [
	{ id: CommandId.Settings, title: 'Settings…', pruner: 'settings', icon: '$(settings-gear)', palette: true },
	{ id: CommandId.Enable, title: 'Turn Pruning On', pruner: 'on', palette: true },
	{ id: CommandId.Disable, title: 'Turn Pruning Off', pruner: 'off', palette: true },
	{ id: CommandId.Status, title: 'Show Status', pruner: 'status', icon: '$(info)', palette: true },
	{ id: CommandId.Stats, title: 'Show Summarizer Stats', pruner: 'stats', palette: true },
	{ id: CommandId.SelectModel, title: 'Choose Summarizer Model…', pruner: 'model', palette: true },
	{ id: CommandId.SelectThinking, title: 'Choose Summarizer Thinking Level…', pruner: 'thinking', palette: true },
	{ id: CommandId.SelectPruneTrigger, title: 'Choose Prune Trigger…', pruner: 'prune-on', palette: true },
	{ id: CommandId.SelectBatching, title: 'Choose Batching Mode…', pruner: 'batching', palette: true },
	{ id: CommandId.ShowTree, title: 'Show Pruned Calls', pruner: 'tree', icon: '$(list-tree)', palette: true },
	{ id: CommandId.FlushNow, title: 'Summarize Pending Batches Now', pruner: 'now', icon: '$(run-all)', palette: true },
	{ id: CommandId.Compact, title: 'Compact Closed Chains Now', pruner: 'compact', icon: '$(fold)', palette: true },
	{ id: CommandId.EditProtectedTools, title: 'Edit Protected Tools…', pruner: 'protected-tools', palette: true },
	{ id: CommandId.EditProtectedPaths, title: 'Edit Protected Paths…', pruner: 'protected-paths', palette: true },
	{ id: CommandId.SetMinBatchChars, title: 'Set Min Batch Chars…', pruner: 'min-batch-chars', palette: true },
	{ id: CommandId.SetRecoveryGrace, title: 'Set Recovery Grace…', pruner: 'recovery-grace', palette: true },
	{ id: CommandId.SetDedup, title: 'Dedup by Content Hash…', pruner: 'dedup', palette: true },
	{ id: CommandId.Help, title: 'Help', pruner: 'help', icon: '$(question)', palette: true },
	{ id: CommandId.OpenSession, title: 'Open Session…', icon: '$(search)', palette: true },
	{ id: CommandId.OpenSessionFile, title: 'Open Session File (.jsonl)', icon: '$(go-to-file)', palette: true },
	{ id: CommandId.Refresh, title: 'Refresh Sessions', icon: '$(refresh)', palette: true },
	{ id: CommandId.FilterSessions, title: 'Filter Sessions…', icon: '$(filter)', palette: true },
	{ id: CommandId.ClearSessionFilter, title: 'Clear Session Filter', icon: '$(clear-all)', palette: true },
	{ id: CommandId.ShowSearchedFolders, title: 'Show Where Sessions Are Searched', palette: true },
	{ id: CommandId.RecoverOutput, title: 'Recover Raw Output…', icon: '$(output)', palette: true },
	{ id: CommandId.OpenPreview, title: 'Open Context Preview', icon: '$(open-preview)', palette: true },
	{ id: CommandId.InstallPiCondense, title: 'Install pi-condense in Pi…', icon: '$(package)', palette: true },
	{ id: CommandId.ConnectPi, title: 'Connect Pi to VS Code…', icon: '$(plug)', palette: true },
	{ id: CommandId.DisconnectPi, title: 'Disconnect Pi from VS Code…', icon: '$(debug-disconnect)', palette: true },
	{ id: CommandId.OpenLastSent, title: 'Open the Last Request Pi Sent', icon: '$(radio-tower)', palette: true },
	{ id: CommandId.SelectSession, title: 'Select Session', palette: false },
	{ id: CommandId.CopyRef, title: 'Copy Ref', icon: '$(copy)', palette: false },
	{ id: CommandId.OpenSummary, title: 'Open Summary as Markdown', icon: '$(markdown)', palette: false },
	{ id: CommandId.OpenBlob, title: 'Open Spilled Output File', icon: '$(file)', palette: false },
	{ id: CommandId.RevealRef, title: 'Reveal in Pruned Calls', icon: '$(list-selection)', palette: false },
	{ id: CommandId.RevealInPreview, title: 'Reveal in Context Preview', icon: '$(open-preview)', palette: false },
	{ id: CommandId.OpenProblem, title: 'Go to Line in Session File', palette: false },
];

/** The ids hover links may run (`MarkdownString.isTrusted.enabledCommands`). */
export const HOVER_COMMANDS: readonly CommandId[] = [CommandId.RecoverOutput, CommandId.RevealRef, CommandId.OpenPreview];

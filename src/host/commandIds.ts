/**
 * Every command id of the extension, and the palette facts of each: title, icon and the `/pruner`
 * subcommand it mirrors. package.json's `contributes.commands` and the command table of docs/commands.md are
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
	UndoLastPrune: 'piCondense.undoLastPrune',
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
	SearchSessions: 'piCondense.searchSessions',
	RenameSession: 'piCondense.renameSession',
	ClearSessionIndex: 'piCondense.clearSessionIndex',
	CountPruning: 'piCondense.countPruning',
	ShowSearchedFolders: 'piCondense.showSearchedFolders',
	RecoverOutput: 'piCondense.recoverOutput',
	OpenPreview: 'piCondense.openPreview',
	InstallPiCondense: 'piCondense.installPiCondense',
	RemoveSetUpKey: 'piCondense.removeSetUpKey',
	// ──── Live sessions: the bridge in Pi ────
	ConnectPi: 'piCondense.connectPi',
	DisconnectPi: 'piCondense.disconnectPi',
	OpenLastSent: 'piCondense.openLastSent',
	CompareRequests: 'piCondense.compareRequests',
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
	/**
	 * When a palette command is offered (its `commandPalette` menu `when`): only where it means
	 * something, so that about ten commands show in a typical state (see `contextKeys.ts`). The
	 * `/pruner` setting commands are all in Settings…; `piCondense.commandPalette.showAll` lists them too.
	 */
	readonly when?: string;
}

/** The palette's extra commands, offered only with `piCondense.commandPalette.showAll`. */
const SHOW_ALL = 'config.piCondense.commandPalette.showAll';

export const COMMANDS: readonly CommandInfo[] = [
	{ id: CommandId.Settings, title: 'Settings…', pruner: 'settings', icon: '$(settings-gear)', palette: true },
	{ id: CommandId.Enable, title: 'Turn Pruning On', pruner: 'on', palette: true, when: 'piCondense.stateKnown && !piCondense.pruningEnabled' },
	{ id: CommandId.Disable, title: 'Turn Pruning Off', pruner: 'off', palette: true, when: 'piCondense.stateKnown && piCondense.pruningEnabled' },
	{ id: CommandId.Status, title: 'Show Status', pruner: 'status', icon: '$(info)', palette: true },
	{ id: CommandId.Stats, title: 'Show Summarizer Stats', pruner: 'stats', palette: true, when: `piCondense.sessionSelected && ${SHOW_ALL}` },
	{ id: CommandId.SelectModel, title: 'Choose Summarizer Model…', pruner: 'model', palette: true, when: SHOW_ALL },
	{ id: CommandId.SelectThinking, title: 'Choose Summarizer Thinking Level…', pruner: 'thinking', palette: true, when: SHOW_ALL },
	{ id: CommandId.SelectPruneTrigger, title: 'Choose Prune Trigger…', pruner: 'prune-on', palette: true, when: SHOW_ALL },
	{ id: CommandId.SelectBatching, title: 'Choose Batching Mode…', pruner: 'batching', palette: true, when: SHOW_ALL },
	{ id: CommandId.ShowTree, title: 'Show Pruned Calls', pruner: 'tree', icon: '$(list-tree)', palette: true, when: `piCondense.sessionSelected && ${SHOW_ALL}` },
	{ id: CommandId.FlushNow, title: 'Summarize Pending Batches Now', pruner: 'now', icon: '$(run-all)', palette: true, when: `piCondense.sessionSelected && piCondense.installed && piCondense.pruningEnabled && piCondense.hasPending || piCondense.sessionSelected && ${SHOW_ALL}` },
	{ id: CommandId.Compact, title: 'Compact Closed Chains Now', pruner: 'compact', icon: '$(fold)', palette: true, when: 'piCondense.sessionSelected && piCondense.installed' },
	{ id: CommandId.UndoLastPrune, title: 'Undo Last Prune', icon: '$(discard)', palette: true, when: 'piCondense.canUndoPrune' },
	{ id: CommandId.EditProtectedTools, title: 'Edit Protected Tools…', pruner: 'protected-tools', palette: true, when: SHOW_ALL },
	{ id: CommandId.EditProtectedPaths, title: 'Edit Protected Paths…', pruner: 'protected-paths', palette: true, when: SHOW_ALL },
	{ id: CommandId.SetMinBatchChars, title: 'Set Min Batch Chars…', pruner: 'min-batch-chars', palette: true, when: SHOW_ALL },
	{ id: CommandId.SetRecoveryGrace, title: 'Set Recovery Grace…', pruner: 'recovery-grace', palette: true, when: SHOW_ALL },
	{ id: CommandId.SetDedup, title: 'Dedup by Content Hash…', pruner: 'dedup', palette: true, when: SHOW_ALL },
	{ id: CommandId.Help, title: 'Help', pruner: 'help', icon: '$(question)', palette: true },
	// Search Pi Sessions… lists the sessions too: the palette offers it, and this one with the maintenance commands.
	{ id: CommandId.OpenSession, title: 'Open Session…', icon: '$(search)', palette: true, when: SHOW_ALL },
	{ id: CommandId.OpenSessionFile, title: 'Open Session File (.jsonl)', icon: '$(go-to-file)', palette: true, when: `piCondense.sessionSelected && ${SHOW_ALL}` },
	{ id: CommandId.Refresh, title: 'Refresh Sessions', icon: '$(refresh)', palette: true, when: SHOW_ALL },
	{ id: CommandId.FilterSessions, title: 'Filter Sessions…', icon: '$(filter)', palette: true, when: `piCondense.hasSessions && ${SHOW_ALL}` },
	{ id: CommandId.ClearSessionFilter, title: 'Clear Session Filter', icon: '$(clear-all)', palette: true, when: 'piCondense.sessionsFiltered' },
	{ id: CommandId.SearchSessions, title: 'Search Pi Sessions…', icon: '$(search-fuzzy)', palette: true, when: 'piCondense.hasSessions' },
	// On a session row's menu; in the palette for the selected session with the maintenance commands.
	{ id: CommandId.RenameSession, title: 'Rename Session…', icon: '$(edit)', palette: true, when: `piCondense.sessionSelected && ${SHOW_ALL}` },
	// Rare: offered with the other maintenance commands (piCondense.commandPalette.showAll); docs/session-index.md names it.
	{ id: CommandId.ClearSessionIndex, title: 'Clear the Session Index', icon: '$(trash)', palette: true, when: SHOW_ALL },
	// Also the Pi Costs view's "not counted yet" row (a click): reads each pruned session the index does not count.
	{ id: CommandId.CountPruning, title: 'Count the Pruning of Every Session', icon: '$(graph)', palette: true, when: SHOW_ALL },
	{ id: CommandId.ShowSearchedFolders, title: 'Show Where Sessions Are Searched', palette: true, when: `piCondense.discoveryDone && !piCondense.hasSessions || ${SHOW_ALL}` },
	{ id: CommandId.RecoverOutput, title: 'Recover Raw Output…', icon: '$(output)', palette: true, when: 'piCondense.sessionSelected' },
	{ id: CommandId.OpenPreview, title: 'Open Context Preview', icon: '$(open-preview)', palette: true, when: 'piCondense.sessionSelected' },
	{ id: CommandId.InstallPiCondense, title: 'Install pi-condense in Pi…', icon: '$(package)', palette: true, when: 'piCondense.stateKnown && !piCondense.installed && isWorkspaceTrusted' },
	// The undo of "Set up a key…" (the prune confirmation's), offered while a key it saved may be removed.
	{ id: CommandId.RemoveSetUpKey, title: 'Remove the Key Set up by Pi Condense', icon: '$(trash)', palette: true, when: 'isWorkspaceTrusted && piCondense.keySetUp' },
	// Connect while the bridge is missing or not Pi's last package. Disconnect, rare, is in Pi Sessions' title menu while
	// the bridge is installed, and in the palette with showAll (contextKeys.ts).
	{ id: CommandId.ConnectPi, title: 'Connect Pi to VS Code…', icon: '$(plug)', palette: true, when: 'isWorkspaceTrusted && piCondense.bridgeChecked && !piCondense.bridgeReady' },
	{ id: CommandId.DisconnectPi, title: 'Disconnect Pi from VS Code…', icon: '$(debug-disconnect)', palette: true, when: `isWorkspaceTrusted && piCondense.bridgeInstalled && ${SHOW_ALL}` },
	// In the palette, Compare takes Open's place once two requests of the selected live session are kept (contextKeys.ts), so
	// that it stays within ten commands; Open stays in the page's Last sent, the status bar's tooltip and the session's menu.
	{ id: CommandId.OpenLastSent, title: 'Open the Last Request Pi Sent', icon: '$(radio-tower)', palette: true, when: 'piCondense.liveSession && !piCondense.canCompareRequests' },
	{ id: CommandId.CompareRequests, title: 'Compare with Previous Request', icon: '$(diff)', palette: true, when: 'piCondense.liveSession && piCondense.canCompareRequests' },
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

/**
 * The Help page (`/pruner help` in VS Code): what pi-condense does, and every command with the
 * `/pruner` subcommand it mirrors. Pure text built from the command list.
 */
import { COMMANDS, CommandId, type CommandId as CommandIdType } from '../commandIds';

const WHAT_IT_DOES: Partial<Record<CommandIdType, string>> = {
	[CommandId.Settings]: 'Every `contextPrune` option with its current value and presets; changes are saved to Pi\'s settings.json.',
	[CommandId.Enable]: 'Turns pruning on (`contextPrune.enabled`).',
	[CommandId.Disable]: 'Turns pruning off; nothing already written is undone.',
	[CommandId.Status]: 'The settings that matter and the summarizer\'s usage in the selected session.',
	[CommandId.Stats]: 'Summarizer calls, tokens and cost recorded in the selected session.',
	[CommandId.SelectModel]: 'The summarizer model: `default` (the session\'s model) or any model you have credentials for, with an optional thinking level.',
	[CommandId.SelectThinking]: 'The summarizer\'s thinking level.',
	[CommandId.SelectPruneTrigger]: 'When pending batches are summarized: when the agent replies, or only on demand.',
	[CommandId.SelectBatching]: 'One summary per turn, or per agent message.',
	[CommandId.ShowTree]: 'Shows the summaries and the tool calls they pruned.',
	[CommandId.FlushNow]: 'Says what it will write and which model summarizes, then summarizes the pending batches of the selected (idle) session; cancellable, writes nothing when cancelled.',
	[CommandId.Compact]: 'Compresses every eligible closed chain now, whether or not chain compression is on.',
	[CommandId.UndoLastPrune]: 'Removes what the last Summarize Now or Compact wrote to the selected session (the file becomes byte for byte what it was), while nothing was written after it and Pi does not hold the session.',
	[CommandId.EditProtectedTools]: 'Tools whose output is never summarized (names separated by commas or spaces; `none` clears).',
	[CommandId.EditProtectedPaths]: 'Globs of `path` arguments whose output is never summarized.',
	[CommandId.SetMinBatchChars]: 'Batches with fewer result characters are skipped (0 turns this off).',
	[CommandId.SetDedup]: 'Repeated outputs become aliases of the first one, with no LLM call.',
	[CommandId.Help]: 'Opens this command table as a page in VS Code.',
	[CommandId.OpenSession]: 'Pick a session to inspect.',
	[CommandId.OpenSessionFile]: 'Opens the selected session\'s raw `.jsonl` file.',
	[CommandId.Refresh]: 'Looks for sessions again.',
	[CommandId.FilterSessions]: 'Shows only sessions whose name, first message or folder contains a text.',
	[CommandId.ClearSessionFilter]: 'Shows every session again.',
	[CommandId.ShowSearchedFolders]: 'Says where sessions are looked for and how to change it.',
	[CommandId.RecoverOutput]: 'Opens the full raw output behind a ref (`t12`), a tool-call id or an alias id: exactly what `context_tree_query` returns.',
	[CommandId.OpenPreview]: 'Shows exactly what the model is sent for the selected session.',
};

export function helpMarkdown(): string {
	// Every command a user can run, whether or not the palette offers it right now.
	const rows = COMMANDS.filter((command) => command.palette).map((command) => {
		const pruner = command.pruner ? `\`/pruner ${command.pruner}\`` : '';
		return `| Pi Condense: ${command.title} | ${pruner} | ${WHAT_IT_DOES[command.id] ?? ''} |`;
	});
	return [
		'# Pi Condense: help',
		'',
		'pi-condense summarizes finished tool-call batches of a Pi session with an LLM, replaces their raw output',
		'with short stubs, compresses closed conversation chains, purges the arguments of failed calls, and keeps',
		'every raw output recoverable by a short ref (`t12`). Its settings live in the `contextPrune` key of Pi\'s',
		'`settings.json` and are shared with pi-condense running inside Pi.',
		'',
		'| Command (palette) | In Pi | What it does |',
		'|---|---|---|',
		...rows,
		'',
		'Hover a ref (`t3`, `b2`) or a tool-call id in a Pi session file to see the head of its raw output.',
		'',
	].join('\n');
}

/**
 * What each `contextPrune` key does, in one line, and the group it is shown under in Settings…
 * (the meanings are pi-condense's: seeds/PRUNING.md and the releases that added the later keys).
 * Groups are in the order the editor shows them. Pure.
 */

export const SETTING_GROUPS = ['Pruning', 'Summarizer', 'Batches', 'Chains', 'Thinking', 'Failed calls', 'Protected output', 'Large outputs'] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

export interface SettingHelp {
	readonly group: SettingGroup;
	/** One line: what the key changes in what Pi sends or writes. */
	readonly description: string;
}

export const SETTING_HELP: Readonly<Record<string, SettingHelp>> = {
	'enabled': { group: 'Pruning', description: 'Whether pi-condense prunes at all: off, Pi sends the whole context (nothing written is undone).' },
	'showPruneStatusLine': { group: 'Pruning', description: 'Show the prune: status line in Pi\'s footer (and in VS Code\'s status bar).' },
	'pruneOn': { group: 'Pruning', description: 'When pending batches are summarized: after each agent reply, or only when you ask (/pruner now).' },
	'autoBudgetThreshold': { group: 'Pruning', description: 'Also summarize when the context passes this share of the model\'s window.' },
	'budgetTurnDelta': { group: 'Pruning', description: 'Also summarize when the context grows by this share of the window in one turn.' },
	'summarizerModel': { group: 'Summarizer', description: 'The model that writes the summaries: default is the session\'s own model, or any provider/model you have a key for.' },
	'summarizerThinking': { group: 'Summarizer', description: 'The summarizer\'s thinking level (default keeps the model\'s own).' },
	'summarizerIdleTimeoutMs': { group: 'Summarizer', description: 'Abort a summarizer call that streams nothing for this long (0: never).' },
	'summarizerMaxTimeoutMs': { group: 'Summarizer', description: 'Abort a summarizer call that takes longer than this in all (0: no limit).' },
	'batchingMode': { group: 'Batches', description: 'One summary per assistant turn, or one per agent reply (all its turns together).' },
	'minBatchChars': { group: 'Batches', description: 'Batches with less output than this are skipped without an LLM call (0: summarize every batch).' },
	'quietOversizedSkips': { group: 'Batches', description: 'Do not notify about batches skipped because their summary came out longer than their output.' },
	'dedupByContentHash': { group: 'Batches', description: 'An output already summarized becomes an alias of the first one, with no LLM call.' },
	'recoveryGraceTurns': { group: 'Batches', description: 'User turns during which an output brought back with context_tree_query stays verbatim (0: off).' },
	'chainCompression.enabled': { group: 'Chains', description: 'Compress closed conversation chains (a user prompt and everything it led to) into one block.' },
	'chainCompression.rollingWindow': { group: 'Chains', description: 'How many of the newest closed chains stay raw; /pruner compact ignores it.' },
	'chainCompression.stripFinalAssistantThinking': { group: 'Chains', description: 'Drop the thinking of a compressed chain\'s final reply.' },
	'chainCompression.fuseRangeSummary': { group: 'Chains', description: 'Fuse the summaries a chain covers into one with an LLM call (else they are joined).' },
	'thinkingStrip.enabled': { group: 'Thinking', description: 'Strip the thinking blocks of older assistant messages (up to pi-condense 2.4.3).' },
	'thinkingStrip.keepLastTurns': { group: 'Thinking', description: 'Keep thinking on this many of the latest assistant messages.' },
	'purgeErrors.enabled': { group: 'Failed calls', description: 'Replace the arguments of failed tool calls once the agent has moved on.' },
	'purgeErrors.cooldownTurns': { group: 'Failed calls', description: 'Assistant turns to wait after a failure before its arguments are purged.' },
	'purgeErrors.minArgChars': { group: 'Failed calls', description: 'Only arguments at least this long are purged.' },
	'protectedTools': { group: 'Protected output', description: 'Tools whose output is never summarized.' },
	'protectedPaths': { group: 'Protected output', description: 'Globs of path arguments whose output is never summarized (skills files by default).' },
	'spillThreshold': { group: 'Large outputs', description: 'Results longer than this go to a file beside the session, with a head kept inline.' },
	'spillPreviewBytes': { group: 'Large outputs', description: 'How much of a spilled result stays inline (bytes).' },
};

/** The help of a key; every key of every release has one (a unit test holds them together). */
export function settingHelp(key: string): SettingHelp {
	return SETTING_HELP[key] ?? { group: 'Pruning', description: '' };
}

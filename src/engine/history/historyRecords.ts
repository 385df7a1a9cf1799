/**
 * What the history index keeps of a session's lines besides its summary: one usage record per
 * model request, pi-condense's events, and the texts search looks in. Types only.
 */

/** Who recorded model usage: an assistant reply, a tool's nested model work, a compaction or branch summary, or a Pi 1.x `usage` entry. */
export type UsageSource = 'assistant' | 'toolResult' | 'compaction' | 'branch_summary' | 'usage';

/** One model request with the usage the session recorded for it. Figures that are not finite numbers count as 0, as Pi's totals count them. */
export interface UsageRecord {
	readonly entryId: string | undefined;
	readonly source: UsageSource;
	/** A `usage` entry's `kind` (`cache_warm`…); undefined otherwise. */
	readonly kind: string | undefined;
	readonly provider: string | undefined;
	readonly model: string | undefined;
	/** Epoch ms: the message's own timestamp, else the entry's. */
	readonly time: number | undefined;
	/** Epoch ms of the entry's own timestamp (when Pi wrote it): what days and a fork's copies are keyed by. */
	readonly entryTime: number | undefined;
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
	readonly totalTokens: number;
	/** USD (`usage.cost.total`). */
	readonly cost: number;
	/** USD by part (`usage.cost.input`, `.output`, `.cacheRead`, `.cacheWrite`). */
	readonly costInput: number;
	readonly costOutput: number;
	readonly costCacheRead: number;
	readonly costCacheWrite: number;
	/** 1-based line in the file. */
	readonly line: number;
}

/**
 * One pi-condense entry (`customType` starting `context-prune-`): a flush's summary, index, chain,
 * frontier, stats…; or one of Pi's compactions and branch summaries (`customType` empty), where the
 * context starts afresh: the cache rebuilds of the history are counted from there as Pi counts them.
 */
export interface CondenseEvent {
	readonly entryId: string | undefined;
	readonly entryType: 'custom' | 'custom_message' | 'compaction' | 'branch_summary';
	readonly customType: string;
	readonly time: number | undefined;
	readonly line: number;
	/** Its small facts as JSON: the scalar fields of its `data` (a summary's `details`) and the length of each list (`<name>Count`). */
	readonly facts: string;
}

/** Who wrote a searchable text. */
export type DocRole = 'user' | 'assistant' | 'tool' | 'bash' | 'custom' | 'summary';

/** A text search looks in: one per message (or summary) that has one. */
export interface SearchDoc {
	readonly entryId: string | undefined;
	readonly role: DocRole;
	readonly time: number | undefined;
	readonly line: number;
	/** Where its line is in the file, so the message can be shown again without storing its text. */
	readonly offset: number;
	readonly bytes: number;
	readonly text: string;
}

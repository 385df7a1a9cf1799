/**
 * pi-condense's configuration: the `contextPrune` key of `<agentDir>/settings.json`, shared with
 * pi-condense running inside Pi. Field names and meanings are on-disk facts (pi-condense 2.0.0's
 * `types.ts`; later keys from the releases that added them, see src/engine/release/releases.ts). A key that
 * only some releases read is optional: it is present exactly when the release in use reads it.
 * Types only.
 */

export type PruneOn = 'agent-message' | 'on-demand';
export type BatchingMode = 'turn' | 'agent-message';
export type SummarizerThinking = 'default' | 'off' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

export interface ChainCompressionConfig {
	readonly enabled: boolean;
	/** Closed chains kept raw (the newest K); `/pruner compact` uses 0. */
	readonly rollingWindow: number;
	readonly stripFinalAssistantThinking: boolean;
	readonly fuseRangeSummary: boolean;
}

export interface ErrorPurgeConfig {
	readonly enabled: boolean;
	/** Assistant turns to wait after an error before its arguments are purged. */
	readonly cooldownTurns: number;
	/** Only arguments whose JSON is at least this long are purged. */
	readonly minArgChars: number;
}

export interface ThinkingStripConfig {
	readonly enabled: boolean;
	/** Keep thinking on the last N assistant messages (clamped to at least 1 when applied). */
	readonly keepLastTurns: number;
}

export interface ContextPruneConfig {
	readonly enabled: boolean;
	readonly showPruneStatusLine: boolean;
	/** `default` (the session's model) or `provider/model-id`. */
	readonly summarizerModel: string;
	readonly summarizerThinking: SummarizerThinking;
	readonly pruneOn: PruneOn;
	readonly batchingMode: BatchingMode;
	readonly quietOversizedSkips: boolean;
	readonly minBatchChars: number;
	readonly protectedTools: readonly string[];
	readonly protectedPaths: readonly string[];
	readonly chainCompression: ChainCompressionConfig;
	readonly purgeErrors: ErrorPurgeConfig;
	/** Up to 2.4.3 only (removed in 2.5.0, whose readers ignore the key). */
	readonly thinkingStrip?: ThinkingStripConfig;
	readonly dedupByContentHash: boolean;
	/** A fraction of the context window in (0, 1], or null when off. */
	readonly autoBudgetThreshold: number | null;
	/** Minimum result length (chars) that is spilled to a blob file. */
	readonly spillThreshold: number;
	/** Size in bytes of the head preview kept inline for a spilled result. */
	readonly spillPreviewBytes: number;
	/** Rise of the usage fraction in one turn that forces a flush, in (0, 1], or null when off. */
	readonly budgetTurnDelta: number | null;
	/** 2.3.0+: user turns during which output recovered through context_tree_query stays verbatim (0: off). */
	readonly recoveryGraceTurns?: number;
	/** 2.4.0+: a summarizer call that streams nothing for this long is aborted (0: never). */
	readonly summarizerIdleTimeoutMs?: number;
	/** 2.4.0+: upper bound on one summarizer call (0: none). */
	readonly summarizerMaxTimeoutMs?: number;
}

/**
 * The flush's request, ports and result. Types only.
 */
import type { CondenseState } from '../condense/state/condenseState';
import type { ContextPruneConfig } from '../config/types';
import type { Summarizer } from '../ports';
import type { ReleaseRules } from '../release/releases';
import type { ContextMessage, SessionEntry } from '../session/types';
import type { EntryDraft } from '../write/entryEnvelope';
import type { ContentHasher } from './contentHash';
import type { ProgressSink } from './flushProgress';
import type { NoticeList } from './noticeList';
import type { SpillWriter } from './spillPhase';
import type { Steps } from '../steps';
import type { SkippedBatchCounts } from './assembleBatches';

/** `now`: summarize pending batches, then compress chains beyond the rolling window (when enabled). `compact`: compress every eligible chain (K = 0), enabled or not. */
export type FlushMode = 'now' | 'compact';

export const DEFAULT_CONCURRENCY = 32;

export interface FlushRequest {
	readonly mode: FlushMode;
	/** The active branch, root → leaf. */
	readonly branch: readonly SessionEntry[];
	/** Pi's context of that branch (`buildSessionContext`): chains are found in it, as the renderer finds them. */
	readonly messages: readonly ContextMessage[];
	readonly config: ContextPruneConfig;
	/** The user's pi-condense release: the state is rebuilt as it rebuilds it. */
	readonly rules: ReleaseRules;
	/** pi-condense's state of `branch` under `rules`, when the caller has it already (the extension's insight): not rebuilt then. */
	readonly state?: CondenseState;
	/** One summarizer call at a time (per-batch progress rows), instead of in parallel. */
	readonly interactive?: boolean;
	/** Parallel summarizer calls at most (default 32). */
	readonly concurrency?: number;
	/** Aborting writes nothing. */
	readonly signal?: AbortSignal;
	readonly onProgress?: ProgressSink;
}

export interface FlushPorts {
	readonly summarizer: Summarizer;
	readonly hash: ContentHasher;
	/** Without it nothing is spilled (results stay inline). */
	readonly spill?: SpillWriter;
	/** Epoch milliseconds (chain `compressedAt`). */
	readonly now: () => number;
	/**
	 * Runs the planning's long passes (state rebuilds, captures, chain detection); the extension
	 * runs them in slices so the host is never held long. Default: at once (`runSteps`).
	 */
	readonly runSteps?: StepRunner;
}

export type StepRunner = <T>(steps: Steps<T>) => Promise<T>;

export type FlushStatus =
	/** Ran to the end; `drafts` may be empty (nothing to do). */
	| 'completed'
	/** A summarizer call failed: `drafts` holds only what came before it (possibly nothing). */
	| 'failed'
	/** The caller aborted: `drafts` is empty. */
	| 'aborted'
	/** `now` with pruning disabled: nothing was looked at. */
	| 'disabled';

export interface FlushReport {
	/** Batches processed (summarized or skipped). */
	readonly batches: number;
	readonly summarizedBatches: number;
	/** Processed batches that were not summarized, by why: with `summarizedBatches` they make `batches`. */
	readonly skippedBatches: SkippedBatchCounts;
	/** Tool calls of the processed batches, and of them those summarized. */
	readonly toolCalls: number;
	readonly summarizedCalls: number;
	/** Results spilled to blob files by the chain backfill (2.9.0+). */
	readonly spilledResults: number;
	readonly compressedChains: readonly string[];
	readonly fusedChains: number;
	/**
	 * `now` that stopped before chain compression (nothing pending, as the release stops): the chains
	 * a flush with work would compress, left for `compact`. 0 otherwise.
	 */
	readonly compactableChains: number;
}

export interface FlushResult {
	readonly status: FlushStatus;
	/** The entries to append, in order. */
	readonly drafts: readonly EntryDraft[];
	/** The final notice, as `/pruner now` or `/pruner compact` shows it. */
	readonly message: string;
	/** Every notice in the order pi-condense emits them; the last one is `message`. */
	readonly notices: NoticeList;
	/** The first summarizer failure, if any. */
	readonly error?: string;
	readonly report: FlushReport;
}

/**
 * What the context preview needs from the rest of the extension. `ControllerSessionFeed`
 * (src/host/controllerSessionFeed.ts) implements it over the session controller; the preview panel
 * only depends on this interface. Types only.
 */
import type * as vscode from 'vscode';
import type { ContextPruneConfig } from '../../engine/config';
import type { StoredAccounts } from '../../engine/costs';
import type { ReleaseRules } from '../../engine/release';
import type { BlobReader } from '../../engine/ports';
import type { CondenseState, PendingBatch } from '../../engine/condense';
import type { SessionContext, SessionEntry, SessionModel } from '../../engine/session';
import type { Steps } from '../../engine/steps';
import type { ModelFacts } from '../../node/llm/modelPricing';
import type { PageActions } from '../../engine/views';
import type { EstimatePorts, FlushEstimate } from '../../engine/preview';
import type { FlushMode } from '../../engine/flush';
import type { LastSentView } from '../../shared/protocol';
import type { CostsLedger } from '../../engine/costs';

/** The session the preview shows: the selected one, as of its latest snapshot. */
export interface ShownSession {
	readonly path: string;
	/** Session name, else its first user message (shortened). */
	readonly title: string;
	readonly model: SessionModel;
	/** Offset after the last complete line the model holds (what an account worked out from it covers). */
	readonly consumed?: number;
	/** The resolved `contextPrune` configuration from Pi's settings.json. */
	readonly config: ContextPruneConfig;
	/** The pi-condense release the context is rendered as. */
	readonly rules: ReleaseRules;
	/** Which pi-condense Pi loads for this session's project, as the preview header says it. */
	readonly followed: FollowedRelease;
	/** Reads spilled outputs from the session's `<sessionId>-blobs/` folder. */
	readonly blobs: BlobReader;
	/**
	 * What the other views already derived from this snapshot, configuration and release: the
	 * preview shares it instead of rebuilding it (on a large session the state alone holds the host
	 * for a second and takes a sixth of the file's size in memory).
	 */
	readonly derived?: DerivedSession;
	/** The status bar's text for this session: the page's header says the same (unless a what-if changes it). */
	readonly statusLine?: string;
	/** The page's Summarize now and Compact buttons; both enabled when absent. */
	readonly actions?: PageActions;
	/**
	 * The dry run of Summarize now, run where the rest of the extension reads it (the controller's
	 * `flushEstimateFor`: the status bar's tooltip follows it); absent: `derived.flushEstimate` in the page's own scope.
	 */
	readonly estimateNow?: () => Promise<FlushEstimate>;
	/** The costs ledger the store keeps for this snapshot's entries (the Costs panel's first paint); absent: no Costs panel. */
	readonly costs?: CostsLedger;
}

/**
 * `SessionInsight` is one: each value computed once, in steps (run in slices), whoever asks first:
 * a settings change hands the preview an insight the views are still preparing.
 */
export interface DerivedSession {
	branchSteps(): Steps<readonly SessionEntry[]>;
	contextSteps(): Steps<SessionContext>;
	stateSteps(): Steps<CondenseState>;
	/** Chains left for `compact` with nothing pending (`PreparedInsight.compactableChains`). */
	compactableChainsSteps(): Steps<number>;
	/** The batches the next flush would capture (`PreparedInsight.pending`). */
	pendingSteps(): Steps<readonly PendingBatch[]>;
	/** What `now` or `compact` would do and reclaim: a dry run of the flush, kept once done (`SessionInsight.flushEstimate`). */
	flushEstimate(mode: FlushMode, ports: EstimatePorts, now: number): Promise<FlushEstimate>;
	/** That estimate once its dry run has finished; undefined before. */
	settledEstimate(mode: FlushMode): FlushEstimate | undefined;
}

/** Which pi-condense Pi loads and where it was found (one line), or that it has none. */
export interface FollowedRelease {
	readonly line: string;
	readonly installed: boolean;
}

export interface SessionFeed {
	/** Fires when the selected session changes, when its file grows, and when Pi's settings change. */
	readonly onDidChangeSession: vscode.Event<void>;
	current(): ShownSession | undefined;
	/** The same text as the recovery command and the `pi-condense:` document (context_tree_query's format). */
	recover(refs: readonly string[]): Promise<string>;
	/** Opens the `pi-condense:` read-only document with the full raw output of a ref. */
	openRecovered(ref: string): Promise<void>;
	/** Pricing of a model (loads pi-ai lazily); undefined when unknown. */
	modelPricing(provider: string, modelId: string): Promise<ModelFacts | undefined>;
	/** `/pruner compact` on the session shown (the preview's Compact button). */
	compact(): Promise<void>;
	/** `/pruner now` on the session shown (the preview's Summarize now button). */
	summarizeNow(): Promise<void>;
	/** Writes `contextPrune` keys (dotted paths, e.g. `chainCompression.rollingWindow`) to Pi's settings.json. */
	applyPruneSettings(changes: ReadonlyArray<{ readonly key: string; readonly value: unknown }>): Promise<void>;
	/** What the Pi holding the session last sent, with its check (live sessions; absent without bridges). */
	lastSent?(): LastSentView | undefined;
	readonly onDidChangeLastSent?: vscode.Event<void>;
	/** Opens the last request, written for reading. */
	openLastSent?(): Promise<void>;
	/** Compare with Previous Request for the shown live session. */
	compareRequests?(): Promise<void>;
	/** Keeps the prune accounts the Costs panel worked out in the session index (the history's costs count them). */
	keepAccounts?(path: string, consumed: number, basis: string, accounts: StoredAccounts): void;
}

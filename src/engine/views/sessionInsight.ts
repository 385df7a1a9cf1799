/**
 * Everything the views derive from one snapshot of a session, one `contextPrune` configuration and
 * one pi-condense release, computed on first use and kept: the active branch, Pi's context,
 * pi-condense's state, the rendered preview, the pending batches (and what `now` would reclaim of
 * them), the pruned-call tree and the chains left for `compact`. A new snapshot, configuration or release means a new insight, so a
 * no-op refresh recomputes nothing.
 */
import type { CondenseState, ContextPreview, LiveReclaim, PendingBatch, PrunedSummaryNode } from '../condense';
import { capturePendingBatchesSteps } from '../condense/pending/capturePending';
import { previewFromStateSteps } from '../condense/renderBranch';
import { buildCondenseStateSteps } from '../condense/state/buildCondenseState';
import { buildPrunedTreeSteps } from '../condense/tree/prunedTree';
import { compactableChainsSteps } from '../flush/chains/chainSelection';
import { contextMetricsForSteps } from '../metrics/contextMetrics';
import { pendingEstimateSteps, type PendingEstimate } from '../preview/pendingEstimate';
import { runSteps, type Steps } from '../steps';
import type { ContextPruneConfig } from '../config/types';
import type { ContextMetrics } from '../metrics';
import type { ReleaseRules } from '../release/releases';
import { getBranchSteps } from '../session/branch';
import { buildSessionContextSteps } from '../session/context';
import type { SessionContext, SessionModel } from '../session/model';
import type { SessionEntry } from '../session/types';

export class SessionInsight {
	private branchValue: readonly SessionEntry[] | undefined;
	private contextValue: SessionContext | undefined;
	private stateValue: CondenseState | undefined;
	private previewValue: ContextPreview | undefined;
	private pendingValue: readonly PendingBatch[] | undefined;
	private treeValue: readonly PrunedSummaryNode[] | undefined;
	private reclaimValue: LiveReclaim | null | undefined;
	private metricsValue: ContextMetrics | null | undefined;
	private compactableValue: number | undefined;
	private estimateValue: PendingEstimate | undefined;

	constructor(readonly model: SessionModel, readonly config: ContextPruneConfig, readonly release: ReleaseRules) {}

	get branch(): readonly SessionEntry[] {
		return runSteps(this.branchSteps());
	}

	get context(): SessionContext {
		return runSteps(this.contextSteps());
	}

	/** pi-condense's state from the branch, whether or not pruning is enabled (the tree and recovery read it). */
	get state(): CondenseState {
		return runSteps(this.stateSteps());
	}

	/** What the model is sent under the configuration, with the status-line text. */
	get preview(): ContextPreview {
		return runSteps(this.previewSteps());
	}

	/** Batches the next flush would summarize. */
	get pending(): readonly PendingBatch[] {
		return runSteps(this.pendingSteps());
	}

	/**
	 * pi-condense's context metrics of the branch (2.7.0+; undefined before), whether or not pruning
	 * is enabled: `/pruner status` shows them either way.
	 */
	get metrics(): ContextMetrics | undefined {
		return runSteps(this.metricsSteps());
	}

	/**
	 * The release's reload-rearm flag (2.7.0+) as it sets it on loading this session: pruning is on
	 * and the pending capture finds work. The first flush clears it in the running Pi.
	 */
	get rearmed(): boolean {
		return this.release.flushMetrics && this.config.enabled && this.pending.length > 0;
	}

	/**
	 * With nothing pending, the chains a flush with work would compress that are still raw (a killed
	 * flush leaves them: the release's `now` then stops at "nothing pending"), which `compact`
	 * compresses now. 0 while batches are pending (the next `now` compresses them too).
	 */
	get compactableChains(): number {
		return runSteps(this.compactableChainsSteps());
	}

	/** What `now` would reclaim, estimated with the release's stubs and a stated summary ratio (`pendingEstimate.ts`). */
	get pendingEstimate(): PendingEstimate {
		return runSteps(this.pendingEstimateSteps());
	}

	get prunedTree(): readonly PrunedSummaryNode[] {
		return runSteps(this.treeSteps());
	}

	/**
	 * What pi-condense's entries reclaim from this context with pruning on, whatever `enabled` says
	 * now: the figure the session list shows. Undefined when the render changes nothing.
	 */
	get reclaim(): LiveReclaim | undefined {
		return runSteps(this.reclaimSteps());
	}

	/**
	 * Computes, in steps, everything the views read (branch, context, state, preview, pending
	 * batches, tree, metrics, reclaim), so that reading them afterwards costs nothing: the extension
	 * runs this in slices before it tells the views the session changed.
	 */
	*prepare(): Steps<void> {
		yield* this.previewSteps();
		yield* this.pendingSteps();
		yield* this.treeSteps();
		yield* this.metricsSteps();
		yield* this.reclaimSteps();
		yield* this.compactableChainsSteps();
		yield* this.pendingEstimateSteps();
	}

	// Each value is computed once, by its steps; a view may read it (at once) while the steps wait
	// between two pieces, so the first value kept stays (`??=`).

	*branchSteps(): Steps<readonly SessionEntry[]> {
		if (this.branchValue === undefined) {
			const branch = yield* getBranchSteps(this.model);
			this.branchValue ??= branch;
		}
		return this.branchValue;
	}

	*contextSteps(): Steps<SessionContext> {
		if (this.contextValue === undefined) {
			const context = yield* buildSessionContextSteps(this.model);
			this.contextValue ??= context;
		}
		return this.contextValue;
	}

	/** The state alone (recovery needs only the state). */
	*stateSteps(): Steps<CondenseState> {
		if (this.stateValue === undefined) {
			const state = yield* buildCondenseStateSteps(yield* this.branchSteps(), this.release, { lineOf: (entry) => this.model.lineOf(entry) });
			this.stateValue ??= state;
		}
		return this.stateValue;
	}

	private *previewSteps(): Steps<ContextPreview> {
		if (this.previewValue === undefined) {
			const preview = yield* previewFromStateSteps(yield* this.stateSteps(), (yield* this.contextSteps()).messages, this.config, this.release);
			this.previewValue ??= preview;
		}
		return this.previewValue;
	}

	private *pendingSteps(): Steps<readonly PendingBatch[]> {
		if (this.pendingValue === undefined) {
			const pending = yield* capturePendingBatchesSteps(yield* this.branchSteps(), yield* this.stateSteps(), this.config);
			this.pendingValue ??= pending;
		}
		return this.pendingValue;
	}

	private *treeSteps(): Steps<readonly PrunedSummaryNode[]> {
		if (this.treeValue === undefined) {
			const tree = yield* buildPrunedTreeSteps(yield* this.stateSteps());
			this.treeValue ??= tree;
		}
		return this.treeValue;
	}

	private *metricsSteps(): Steps<ContextMetrics | undefined> {
		if (this.metricsValue === undefined) {
			const metrics = (yield* contextMetricsForSteps(yield* this.branchSteps(), yield* this.stateSteps(), this.config, this.release)) ?? null;
			this.metricsValue ??= metrics;
		}
		return this.metricsValue ?? undefined;
	}

	*compactableChainsSteps(): Steps<number> {
		if (this.compactableValue === undefined) {
			const count = (yield* this.pendingSteps()).length > 0
				? 0
				: yield* compactableChainsSteps(yield* this.branchSteps(), (yield* this.contextSteps()).messages, yield* this.stateSteps(), this.config, this.release);
			this.compactableValue ??= count;
		}
		return this.compactableValue;
	}

	*pendingEstimateSteps(): Steps<PendingEstimate> {
		if (this.estimateValue === undefined) {
			const estimate = yield* pendingEstimateSteps(yield* this.pendingSteps(), yield* this.stateSteps(), {
				minBatchChars: this.config.minBatchChars, summaryDisplay: this.release.summaryDisplay, occurrenceKeys: this.release.occurrenceKeys,
			});
			this.estimateValue ??= estimate;
		}
		return this.estimateValue;
	}

	/** The reclaim figure (what the session list shows), in steps. */
	*reclaimSteps(): Steps<LiveReclaim | undefined> {
		if (this.reclaimValue === undefined) {
			const preview = this.config.enabled
				? yield* this.previewSteps()
				: yield* previewFromStateSteps(yield* this.stateSteps(), (yield* this.contextSteps()).messages, { ...this.config, enabled: true }, this.release);
			this.reclaimValue ??= preview.reclaim ?? null;
		}
		return this.reclaimValue ?? undefined;
	}
}

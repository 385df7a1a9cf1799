/**
 * Everything the views derive from one snapshot of a session, one `contextPrune` configuration and
 * one pi-condense release, computed on first use and kept: the active branch, Pi's context,
 * pi-condense's state, the rendered preview, the pending batches and the pruned-call tree. A new
 * snapshot, configuration or release means a new insight, so a no-op refresh recomputes nothing.
 */
import {
	buildCondenseState, buildPrunedTree, capturePendingBatches, previewFromState,
	type CondenseState, type ContextPreview, type LiveReclaim, type PendingBatch, type PrunedSummaryNode,
} from '../condense';
import { capturePendingBatchesSteps } from '../condense/pending/capturePending';
import { previewFromStateSteps } from '../condense/renderBranch';
import { buildCondenseStateSteps } from '../condense/state/buildCondenseState';
import { buildPrunedTreeSteps } from '../condense/tree/prunedTree';
import { contextMetricsForSteps } from '../metrics/contextMetrics';
import { runSteps, type Steps } from '../steps';
import type { ContextPruneConfig } from '../config/types';
import { contextMetricsFor, type ContextMetrics } from '../metrics';
import type { ReleaseRules } from '../release/releases';
import { buildSessionContext, getBranch } from '../session';
import { getBranchSteps } from '../session/branch';
import { buildSessionContextSteps } from '../session/context';
import type { SessionContext, SessionModel } from '../session/model';
import type { AgentMessage, SessionEntry } from '../session/types';

export class SessionInsight {
	private branchValue: readonly SessionEntry[] | undefined;
	private contextValue: SessionContext | undefined;
	private stateValue: CondenseState | undefined;
	private previewValue: ContextPreview | undefined;
	private pendingValue: readonly PendingBatch[] | undefined;
	private treeValue: readonly PrunedSummaryNode[] | undefined;
	private reclaimValue: LiveReclaim | null | undefined;
	private metricsValue: ContextMetrics | null | undefined;

	constructor(readonly model: SessionModel, readonly config: ContextPruneConfig, readonly release: ReleaseRules) {}

	get branch(): readonly SessionEntry[] {
		return this.branchValue ??= getBranch(this.model);
	}

	get context(): SessionContext {
		return this.contextValue ??= buildSessionContext(this.model);
	}

	/** pi-condense's state from the branch, whether or not pruning is enabled (the tree and recovery read it). */
	get state(): CondenseState {
		return this.stateValue ??= buildCondenseState(this.branch, this.release, { lineOf: (entry) => this.model.lineOf(entry) });
	}

	/** What the model is sent under the configuration, with the status-line text. */
	get preview(): ContextPreview {
		return this.previewValue ??= previewFromState(this.state, this.context.messages, this.config, this.release);
	}

	/** Batches the next flush would summarize. */
	get pending(): readonly PendingBatch[] {
		return this.pendingValue ??= capturePendingBatches(this.branch, this.state, this.config);
	}

	/**
	 * pi-condense's context metrics of the branch (2.7.0+; undefined before), whether or not pruning
	 * is enabled: `/pruner status` shows them either way.
	 */
	get metrics(): ContextMetrics | undefined {
		if (this.metricsValue === undefined) {
			this.metricsValue = contextMetricsFor(this.branch, this.state, this.config, this.release) ?? null;
		}
		return this.metricsValue ?? undefined;
	}

	/**
	 * The release's reload-rearm flag (2.7.0+) as it sets it on loading this session: pruning is on
	 * and the pending capture finds work. The first flush clears it in the running Pi.
	 */
	get rearmed(): boolean {
		return this.release.flushMetrics && this.config.enabled && this.pending.length > 0;
	}

	get prunedTree(): readonly PrunedSummaryNode[] {
		return this.treeValue ??= buildPrunedTree(this.state);
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
		const branch = yield* this.branchSteps();
		const messages = (yield* this.contextSteps()).messages;
		// A view may read a value while this waits between steps: the first value kept stays (`??=`).
		const state = yield* this.stateSteps();
		yield* this.previewSteps(state, messages);
		if (this.pendingValue === undefined) {
			const pending = yield* capturePendingBatchesSteps(branch, state, this.config);
			this.pendingValue ??= pending;
		}
		if (this.treeValue === undefined) {
			const tree = yield* buildPrunedTreeSteps(state);
			this.treeValue ??= tree;
		}
		if (this.metricsValue === undefined) {
			const metrics = (yield* contextMetricsForSteps(branch, state, this.config, this.release)) ?? null;
			this.metricsValue ??= metrics;
		}
		yield* this.reclaimSteps();
	}

	/** The branch, in steps. */
	*branchSteps(): Steps<readonly SessionEntry[]> {
		if (this.branchValue === undefined) {
			const branch = yield* getBranchSteps(this.model);
			this.branchValue ??= branch;
		}
		return this.branchValue;
	}

	/** Pi's context, in steps. */
	*contextSteps(): Steps<SessionContext> {
		if (this.contextValue === undefined) {
			const context = yield* buildSessionContextSteps(this.model);
			this.contextValue ??= context;
		}
		return this.contextValue;
	}

	/** The state, in steps (recovery needs only the state). */
	*stateSteps(): Steps<CondenseState> {
		const branch = yield* this.branchSteps();
		// A view may read a value while this waits between steps: the first value kept stays (`??=`).
		if (this.stateValue === undefined) {
			const state = yield* buildCondenseStateSteps(branch, this.release, { lineOf: (entry) => this.model.lineOf(entry) });
			this.stateValue ??= state;
		}
		return this.stateValue;
	}

	private *previewSteps(state: CondenseState, messages: readonly AgentMessage[]): Steps<ContextPreview> {
		if (this.previewValue === undefined) {
			const preview = yield* previewFromStateSteps(state, messages, this.config, this.release);
			this.previewValue ??= preview;
		}
		return this.previewValue;
	}

	/** The reclaim figure, in steps. */
	*reclaimSteps(): Steps<LiveReclaim | undefined> {
		if (this.reclaimValue === undefined) {
			const state = yield* this.stateSteps();
			const messages = (yield* this.contextSteps()).messages;
			const preview = this.config.enabled ? yield* this.previewSteps(state, messages) : yield* previewFromStateSteps(state, messages, { ...this.config, enabled: true }, this.release);
			this.reclaimValue ??= preview.reclaim ?? null;
		}
		return this.reclaimValue ?? undefined;
	}
}

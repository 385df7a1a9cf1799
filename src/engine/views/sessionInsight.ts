/**
 * Everything the views derive from one snapshot of a session, one `contextPrune` configuration and
 * one pi-condense release: the active branch, Pi's context, pi-condense's state, the rendered
 * preview, the pending batches, the pruned-call tree and the chains left for `compact`. Computed
 * only in steps (`prepare`), each value once and kept, into plain values (`PreparedInsight`) that
 * cost nothing to read: nothing here runs a pass at once. What `now` or `compact` would do (a dry
 * run of the flush, `flushEstimate`) is worked out only when asked, and kept. A new snapshot, configuration or release
 * means a new insight, so a no-op refresh recomputes nothing. The extension's views, the preview,
 * the flush and the command line all read a session's derived values from here: each rule that
 * derives them (what is pending, what `compact` has left, the rearm flag, the footer) has one copy.
 */
import type { CondenseState, RenderedContext, LiveReclaim, PendingBatch, PrunedSummaryNode } from '../condense';
import { capturePendingBatchesSteps } from '../condense/pending/capturePending';
import { previewFromStateSteps } from '../condense/renderBranch';
import { buildCondenseStateSteps } from '../condense/state/buildCondenseState';
import { buildPrunedTreeSteps } from '../condense/tree/prunedTree';
import { compactableChainsSteps } from '../chains/chainSelection';
import { contextMetricsForSteps } from '../metrics/contextMetrics';
import { estimateFlush, type EstimatePorts, type FlushEstimate } from '../preview/flushEstimate';
import type { FlushMode } from '../flush/flushTypes';
import { runSteps, type Steps } from '../steps';
import type { ContextPruneConfig } from '../config/types';
import { diagnosticCounts, type ContextMetrics, type DiagnosticCounts } from '../metrics';
import type { ReleaseRules } from '../release/releases';
import { getBranchSteps } from '../session/branch';
import { buildSessionContextSteps } from '../session/context';
import type { SessionContext, SessionModel } from '../session/model';
import type { SessionEntry } from '../session/types';

/** What the views read of one session under one configuration and release: plain values, all computed. */
export interface PreparedInsight {
	readonly model: SessionModel;
	readonly config: ContextPruneConfig;
	readonly rules: ReleaseRules;
	readonly branch: readonly SessionEntry[];
	readonly context: SessionContext;
	/** pi-condense's state from the branch, whether or not pruning is enabled (the tree and recovery read it). */
	readonly state: CondenseState;
	/** What the model is sent under the configuration, with the status-line text. */
	readonly preview: RenderedContext;
	/** Batches the next flush would summarize. */
	readonly pending: readonly PendingBatch[];
	readonly prunedTree: readonly PrunedSummaryNode[];
	/**
	 * pi-condense's context metrics of the branch (2.7.0+; undefined before), whether or not pruning
	 * is enabled: `/pruner status` shows them either way.
	 */
	readonly metrics: ContextMetrics | undefined;
	/**
	 * What pi-condense's entries reclaim from this context with pruning on, whatever `enabled` says
	 * now: the figure the session list shows. Undefined when the render changes nothing.
	 */
	readonly reclaim: LiveReclaim | undefined;
	/**
	 * With nothing pending, the chains a flush with work would compress that are still raw (a killed
	 * flush leaves them: the release's `now` then stops at "nothing pending"), which `compact`
	 * compresses now. 0 while batches are pending (the next `now` compresses them too).
	 */
	readonly compactableChains: number;
	/**
	 * The release's reload-rearm flag (2.7.0+) as it sets it on loading this session: pruning is on
	 * and the pending capture finds work. The first flush clears it in the running Pi.
	 */
	readonly rearmed: boolean;
}

/** What the release's footer needs of a render: its status text and the diagnostics it counts. */
export interface RenderedFooter {
	readonly statusText: string;
	readonly counts: DiagnosticCounts;
}

export class SessionInsight {
	private branchValue: readonly SessionEntry[] | undefined;
	private contextValue: SessionContext | undefined;
	private stateValue: CondenseState | undefined;
	private previewValue: RenderedContext | undefined;
	private pendingValue: readonly PendingBatch[] | undefined;
	private treeValue: readonly PrunedSummaryNode[] | undefined;
	private reclaimValue: LiveReclaim | null | undefined;
	private metricsValue: ContextMetrics | null | undefined;
	private compactableValue: number | undefined;
	private readonly estimates = new Map<FlushMode, Promise<FlushEstimate>>();
	private readonly settled = new Map<FlushMode, FlushEstimate>();
	private preparedValue: PreparedInsight | undefined;

	constructor(readonly model: SessionModel, readonly config: ContextPruneConfig, readonly rules: ReleaseRules) {}

	/**
	 * Computes, in steps, everything the views read, and returns it as plain values: the extension
	 * runs this in slices before it tells the views the session changed. Each value is computed
	 * once, whoever asks for it first (the preview asks for the branch, context and state alone).
	 */
	*prepare(): Steps<PreparedInsight> {
		if (this.preparedValue === undefined) {
			const prepared: PreparedInsight = {
				model: this.model,
				config: this.config,
				rules: this.rules,
				branch: yield* this.branchSteps(),
				context: yield* this.contextSteps(),
				state: yield* this.stateSteps(),
				preview: yield* this.previewSteps(),
				pending: yield* this.pendingSteps(),
				prunedTree: yield* this.treeSteps(),
				metrics: yield* this.metricsSteps(),
				reclaim: yield* this.reclaimSteps(),
				compactableChains: yield* this.compactableChainsSteps(),
				rearmed: yield* this.rearmedSteps(),
			};
			this.preparedValue ??= prepared;
		}
		return this.preparedValue;
	}

	// Each value is computed once, by its steps; two callers may run the same steps at once (the
	// views' preparation and the preview, both in slices), so the first value kept stays (`??=`).

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
			const state = yield* buildCondenseStateSteps(yield* this.branchSteps(), this.rules, { lineOf: (entry) => this.model.lineOf(entry) });
			this.stateValue ??= state;
		}
		return this.stateValue;
	}

	/** What the model is sent under the configuration (`PreparedInsight.preview`). */
	*previewSteps(): Steps<RenderedContext> {
		if (this.previewValue === undefined) {
			const preview = yield* previewFromStateSteps(yield* this.stateSteps(), (yield* this.contextSteps()).messages, this.config, this.rules);
			this.previewValue ??= preview;
		}
		return this.previewValue;
	}

	/** The batches the next flush would summarize (`PreparedInsight.pending`). */
	*pendingSteps(): Steps<readonly PendingBatch[]> {
		if (this.pendingValue === undefined) {
			const pending = yield* capturePendingBatchesSteps(yield* this.branchSteps(), yield* this.stateSteps(), this.config);
			this.pendingValue ??= pending;
		}
		return this.pendingValue;
	}

	/** The pruned-call tree (`PreparedInsight.prunedTree`). */
	*treeSteps(): Steps<readonly PrunedSummaryNode[]> {
		if (this.treeValue === undefined) {
			const tree = yield* buildPrunedTreeSteps(yield* this.stateSteps());
			this.treeValue ??= tree;
		}
		return this.treeValue;
	}

	/** pi-condense's context metrics (`PreparedInsight.metrics`). */
	*metricsSteps(): Steps<ContextMetrics | undefined> {
		if (this.metricsValue === undefined) {
			const metrics = (yield* contextMetricsForSteps(yield* this.branchSteps(), yield* this.stateSteps(), this.config, this.rules)) ?? null;
			this.metricsValue ??= metrics;
		}
		return this.metricsValue ?? undefined;
	}

	/** The release's reload-rearm flag (`PreparedInsight.rearmed`): from 2.7.0, pruning on and work pending. */
	*rearmedSteps(): Steps<boolean> {
		return this.rules.flushMetrics && this.config.enabled && (yield* this.pendingSteps()).length > 0;
	}

	/**
	 * The footer's status text and diagnostic counts, from the kept preview when there is one. Else
	 * (the command line asks for the footer alone) the branch is rendered for it and only these two
	 * are kept: the rendered context's own objects (stubs, chain blocks, its diagnostics) are then
	 * garbage before the metrics run, so a collection while they run can take them.
	 */
	*footerSteps(): Steps<RenderedFooter> {
		const preview = this.previewValue ?? (yield* previewFromStateSteps(yield* this.stateSteps(), (yield* this.contextSteps()).messages, this.config, this.rules));
		return { statusText: preview.statusText, counts: diagnosticCounts(preview.diagnostics) };
	}

	/** The chains left for `compact` (`PreparedInsight.compactableChains`), alone. */
	*compactableChainsSteps(): Steps<number> {
		if (this.compactableValue === undefined) {
			const count = (yield* this.pendingSteps()).length > 0
				? 0
				: yield* compactableChainsSteps(yield* this.branchSteps(), (yield* this.contextSteps()).messages, yield* this.stateSteps(), this.config, this.rules);
			this.compactableValue ??= count;
		}
		return this.compactableValue;
	}

	/**
	 * What `now` or `compact` would do and reclaim: a dry run of the flush (`flushEstimate.ts`), kept
	 * once it succeeds (one figure for the preview's bar, the confirmation and the toast). A run that
	 * failed or was stopped is not kept: the next caller starts again. `now` is the moment its
	 * entries would be written, used only for their timestamps.
	 */
	flushEstimate(mode: FlushMode, ports: EstimatePorts, now: number): Promise<FlushEstimate> {
		let estimate = this.estimates.get(mode);
		if (estimate === undefined) {
			const run = ports.runSteps ?? ((steps) => Promise.resolve(runSteps(steps)));
			estimate = (async () => estimateFlush({
				mode,
				branch: await run(this.branchSteps()),
				messages: (await run(this.contextSteps())).messages,
				sent: (await run(this.previewSteps())).after,
				state: await run(this.stateSteps()),
				config: this.config,
				rules: this.rules,
				now,
			}, { ...ports, runSteps: run }))();
			this.estimates.set(mode, estimate);
			estimate.then((value) => this.settled.set(mode, value), () => this.estimates.delete(mode));
		}
		return estimate;
	}

	/** The estimate of `mode` once a dry run has finished; undefined before. */
	settledEstimate(mode: FlushMode): FlushEstimate | undefined {
		return this.settled.get(mode);
	}

	/** The reclaim figure (what the session list shows), alone. */
	*reclaimSteps(): Steps<LiveReclaim | undefined> {
		if (this.reclaimValue === undefined) {
			const preview = this.config.enabled
				? yield* this.previewSteps()
				: yield* previewFromStateSteps(yield* this.stateSteps(), (yield* this.contextSteps()).messages, { ...this.config, enabled: true }, this.rules);
			this.reclaimValue ??= preview.reclaim ?? null;
		}
		return this.reclaimValue ?? undefined;
	}
}

/**
 * The flush: pi-condense's `flushPending` (and `/pruner compact`) as one function that returns the
 * entries to append instead of appending them. Pure apart from its ports (summarizer, hashing,
 * blob files, clock); it never reads or writes the session itself.
 *
 * Everything is written as the user's release writes it (`request.release`). Order (2.9.1's, the
 * same in every release for the entries it knows): capture the pending batches (protected calls
 * never enter; frontier trim); content-hash dedup aliases; trivial skip; summarizer calls; per
 * batch the summary and its index entry; frontier and stats; then, only when something was
 * captured (`now`) or always (`compact`), chain compression on the state as it will read after
 * those entries (backfill index, chain, diagnostics as met, one more stats); last, for `now` from
 * 2.7.0, the `context-prune-flush-metrics` entry. The result's drafts are written by the caller,
 * in one append, so an abort or a failure before that point leaves the session untouched.
 *
 * A file a killed flush left part-written is read as the release reads it, with no repair of
 * ours: a summary whose index entry is missing is ignored (its calls are captured and summarized
 * again, under the next refs), the stats continue from the last stats entry, and chains a kill
 * left uncompressed wait for `compact` or the next flush with work (docs/writing.md, "After a crash").
 *
 * @example
 * const result = await runFlush({ mode: 'now', branch, messages, config, release }, ports);
 * await writeEntriesToSession(path, result.drafts);
 */
import { capturePendingBatchesSteps } from '../condense/pending/capturePending';
import { buildCondenseStateSteps } from '../condense/state/buildCondenseState';
import type { CondenseState } from '../condense/state/condenseState';
import { contextMetricsForSteps, flushMetricsEntry, flushMetricsOutcome, flushMetricsTrigger } from '../metrics';
import type { SessionEntry } from '../session/types';
import type { EntryDraft } from '../write/entryEnvelope';
import { runSummaryJobs, type JobOutcome, type SummaryJob } from './callSummarizer';
import { compressChains, type ChainPhase } from './compressChains';
import { compactableChainsSteps, planChainSelectionSteps } from '../chains/chainSelection';
import { classifyBatch, type PreparedBatch } from './classifyBatches';
import { DedupIndex } from './dedupIndex';
import { assembleBatchesSteps, type BatchPhase } from './assembleBatches';
import { statsDraft } from './entryDrafts';
import { safeProgress, type ProgressSink } from './flushProgress';
import { StatsAccumulator } from './flushStats';
import { DEFAULT_CONCURRENCY, type FlushPorts, type FlushRequest, type FlushResult, type StepRunner } from './flushTypes';
import { NoticeList } from './noticeList';
import * as say from './notices';
import { batchPrompt } from './prompt/batchPrompt';
import { thinkingStripBoundary } from './thinkingBoundary';
import { withPlannedEntriesSteps } from './virtualBranch';
import { mapSteps, paced, runSteps, type Steps } from '../steps';

interface Shared {
	readonly request: FlushRequest;
	readonly ports: FlushPorts;
	readonly progress: ProgressSink;
	readonly stats: StatsAccumulator;
	readonly concurrency: number;
	readonly at: number;
	readonly stateOf: (branch: readonly SessionEntry[]) => Promise<CondenseState>;
	readonly run: StepRunner;
}

/**
 * `buildCondenseStateSteps`, remembering the last branch: planning steps that add nothing reuse the
 * state, and the request's own branch starts with the state the caller gave, if any.
 */
function lastStateOf(request: FlushRequest, run: StepRunner): (branch: readonly SessionEntry[]) => Promise<CondenseState> {
	const rules = request.rules;
	let last: { branch: readonly SessionEntry[]; state: Promise<CondenseState> } | undefined = request.state && { branch: request.branch, state: Promise.resolve(request.state) };
	return (branch) => {
		if (last?.branch !== branch) {
			last = { branch, state: run(buildCondenseStateSteps(branch, rules)) };
		}
		return last.state;
	};
}

const runAtOnce: StepRunner = (steps) => Promise.resolve(runSteps(steps));
const NO_SKIPS = { trivial: 0, deduped: 0, oversized: 0 } as const;

export async function runFlush(request: FlushRequest, ports: FlushPorts): Promise<FlushResult> {
	const { config, mode, rules } = request;
	if (mode === 'now' && !config.enabled) {
		return emptyResult('disabled', say.DISABLED_NOTICE);
	}
	const at = ports.now();
	const run = ports.runSteps ?? runAtOnce;
	const stateOf = lastStateOf(request, run);
	const branch = request.branch;
	const state = await stateOf(branch);
	// 2.7.0+: the metrics are a snapshot taken at flush entry, before any work.
	const metrics = mode === 'now' ? await run(contextMetricsForSteps(branch, state, config, rules)) : undefined;
	// As the release: the counts continue from the last stats entry on the branch.
	const stats = new StatsAccumulator(state.stats);
	const shared: Shared = {
		request, ports, stats, at, stateOf, run,
		progress: safeProgress(request.onProgress),
		concurrency: Math.max(1, request.concurrency ?? DEFAULT_CONCURRENCY),
	};
	const dedup = new DedupIndex(ports.hash, state, rules);
	const batches = mode === 'now' ? await batchPhase(shared, branch, state, dedup) : undefined;
	if (batches === 'aborted') {
		return emptyResult('aborted', say.nothingFlushedNotice('aborted'));
	}
	// The release returns before chain compression when nothing was pending, or when no batch got through.
	const stopAfterBatches = batches !== undefined && (batches.captured === 0 || (batches.phase.failure !== undefined && batches.phase.processedBatches === 0));
	const runChains = !stopAfterBatches && (mode === 'compact' || config.chainCompression.enabled);
	const afterBatches = batches ? await shared.run(withPlannedEntriesSteps(branch, batches.phase.drafts, at)) : branch;
	// Refs an oversized batch burned stay burned for the chain backfill (the release's counter is in memory).
	const chains = runChains ? await chainPhase(shared, afterBatches, dedup, batches?.phase.nextRefNumber ?? 0) : undefined;
	if (chains === 'aborted') {
		return emptyResult('aborted', say.nothingFlushedNotice('aborted'));
	}
	// The chains such a stop leaves raw (a kill before the chain phase leaves some): the user is told.
	const compactableChains = mode === 'now' && batches?.captured === 0
		? await run(compactableChainsSteps(branch, request.messages, state, config, rules))
		: 0;
	const drafts: EntryDraft[] = [...(batches?.phase.drafts ?? []), ...(chains?.phase.drafts ?? [])];
	if (chains && chains.phase.compressed.length > 0) {
		drafts.push(statsDraft(stats.snapshot()));
	}
	const metricsEntry = metrics && batches && flushMetricsEntry(rules, {
		ts: ports.now(),
		trigger: flushMetricsTrigger({ kind: 'manual' }),
		capturedBatches: batches.captured,
		processedBatches: batches.phase.processedBatches,
		outcome: flushMetricsOutcome({ capturedBatches: batches.captured, processedBatches: batches.phase.processedBatches, frontierOutcome: batches.phase.outcome }),
		metrics,
	});
	if (metricsEntry) {
		drafts.push({ type: 'custom', ...metricsEntry });
	}
	const blockIds = chains?.phase.compressed.map((chain) => chain.entry.blockId) ?? [];
	const leading: string[] = [];
	if (batches?.phase.failureNotice) {
		leading.push(batches.phase.failureNotice);
	}
	if (mode === 'now' && blockIds.length > 0) {
		leading.push(say.chainsCompressedNotice(blockIds));
	}
	const message = mode === 'now'
		? batches?.phase.finalNotice ?? say.NOTHING_PENDING_NOTICE
		: compactNotice(chains);
	const notices = NoticeList.of(...leading, batches?.phase.skipNotices ?? NoticeList.of(), message);
	return {
		status: batches?.phase.failure ? 'failed' : 'completed',
		drafts,
		message,
		notices,
		error: batches?.phase.failure?.message,
		report: {
			batches: batches?.phase.processedBatches ?? 0,
			summarizedBatches: batches?.phase.summarizedBatches ?? 0,
			skippedBatches: batches?.phase.skippedBatches ?? NO_SKIPS,
			toolCalls: batches?.phase.toolCalls ?? 0,
			summarizedCalls: batches?.phase.summarizedCalls ?? 0,
			spilledResults: chains?.phase.spilledResults ?? 0,
			compressedChains: blockIds,
			fusedChains: chains?.phase.fused ?? 0,
			compactableChains,
		},
	};
}

/** The flush-metrics outcome: `empty` with nothing captured, the frontier outcome once a batch got through, else `error`. */
async function batchPhase(shared: Shared, branch: readonly SessionEntry[], state: CondenseState, dedup: DedupIndex): Promise<{ phase: BatchPhase; captured: number } | 'aborted'> {
	const { config, signal, interactive, rules } = shared.request;
	const captured = await shared.run(capturePendingBatchesSteps(branch, state, config));
	const pending = await shared.run(mapSteps(captured, (batch) => classifyBatch(batch, dedup, config)));
	if (pending.length > 0) {
		shared.progress({ type: 'batches', batches: pending.map((batch) => ({ toolCallCount: batch.captured.toolCalls.length, rawChars: batch.rawChars })) });
	}
	const { jobs, jobBatches } = await shared.run(summaryJobs(shared, pending));
	const run = await runSummaryJobs(jobs, {
		summarizer: shared.ports.summarizer,
		sequential: interactive === true,
		concurrency: shared.concurrency,
		progressTotal: pending.length,
		signal,
		progress: shared.progress,
		pause: () => shared.run(pausePoint()),
	});
	if (run.aborted) {
		return 'aborted';
	}
	const outcomes = new Map<PreparedBatch, JobOutcome>(jobBatches.map((batch, i) => [batch, run.outcomes[i] ?? { kind: 'not-run' }]));
	// 2.4.3 stores the thinking-strip boundary on the frontier (only written when a batch was processed).
	const boundary = thinkingStripBoundary(branch, state.frontier?.thinkingStripBoundaryTimestamp, config.thinkingStrip, rules);
	const phase = await shared.run(assembleBatchesSteps(pending, outcomes, state.nextRefNumber, shared.stats, { ...config, rules, thinkingStripBoundary: boundary }));
	return { phase, captured: captured.length };
}

/** The summarizer calls of the batches that need one (each prompt is built when its call starts). */
function* summaryJobs(shared: Shared, pending: readonly PreparedBatch[]): Steps<{ jobs: SummaryJob[]; jobBatches: PreparedBatch[] }> {
	const { rules } = shared.request;
	const jobs: SummaryJob[] = [];
	const jobBatches: PreparedBatch[] = [];
	for (const [index, batch] of pending.entries()) {
		if (paced(index)) {
			yield;
		}
		if (batch.kind === 'summarize') {
			jobs.push({ request: () => batchPrompt({ assistantText: batch.captured.assistantText, toolCalls: batch.remaining }, rules.promptRevision), progressIndex: index });
			jobBatches.push(batch);
		} else {
			shared.progress({ type: 'batch-skipped', index, total: pending.length, reason: batch.kind === 'deduped' ? 'deduped' : 'trivial' });
		}
	}
	return { jobs, jobBatches };
}

async function chainPhase(shared: Shared, branch: readonly SessionEntry[], dedup: DedupIndex, burnedUpTo: number): Promise<{ phase: ChainPhase; skippedNoSummary: number } | 'aborted'> {
	const { config, messages, mode, signal, rules } = shared.request;
	const state = await shared.stateOf(branch);
	const keepRaw = mode === 'compact' ? 0 : config.chainCompression.rollingWindow;
	const plan = await shared.run(planChainSelectionSteps({ branch, messages, state, config, rules, keepRaw }));
	const phase = await compressChains(plan.jobs, plan.skipped, {
		rules,
		state,
		firstRefNumber: Math.max(state.nextRefNumber, burnedUpTo),
		fuseRangeSummary: config.chainCompression.fuseRangeSummary,
		summarizer: shared.ports.summarizer,
		spill: shared.ports.spill,
		spillSettings: config,
		dedup,
		stats: shared.stats,
		now: shared.ports.now,
		concurrency: shared.concurrency,
		signal,
		progress: shared.progress,
		pause: () => shared.run(pausePoint()),
	});
	if (phase.aborted) {
		return 'aborted';
	}
	const skippedNoSummary = plan.skipped.length + phase.failedBackfills;
	return { phase, skippedNoSummary };
}

/** One empty step: run through `shared.run`, it lets the thread go once its slice is spent. */
function* pausePoint(): Steps<void> {
	yield;
}

function compactNotice(chains: { phase: ChainPhase; skippedNoSummary: number } | undefined): string {
	const compressed = chains?.phase.compressed ?? [];
	if (compressed.length === 0) {
		return say.noEligibleChainsNotice(chains?.skippedNoSummary ?? 0);
	}
	const droppedChars = compressed.reduce((sum, chain) => sum + chain.droppedChars, 0);
	return say.compactedNotice(compressed.map((chain) => chain.entry.blockId), Math.ceil(droppedChars / 4));
}

function emptyResult(status: 'aborted' | 'disabled', message: string): FlushResult {
	return {
		status,
		drafts: [],
		message,
		notices: NoticeList.of(message),
		report: { batches: 0, summarizedBatches: 0, skippedBatches: NO_SKIPS, toolCalls: 0, summarizedCalls: 0, spilledResults: 0, compressedChains: [], fusedChains: 0, compactableChains: 0 },
	};
}

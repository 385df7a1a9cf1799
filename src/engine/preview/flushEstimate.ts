/**
 * What Summarize Now (`now`) or Compact (`compact`) would do, worked out before it runs: a dry run
 * of the flush itself (`runFlush`, under the user's release's rules), so the estimate knows what the
 * flush knows. Which batches it summarizes and which it skips and why (trivial: under
 * `minBatchChars`; content-hash duplicates; oversized: a summary longer than the output), the chains
 * its chain step compresses afterwards (beyond the rolling window for `now`, every eligible one for
 * `compact`), the refs and entries it writes. Only the summaries' text is not known before a model
 * writes it: each batch's summary is taken as a stated share of its output (this session's ratio so
 * far, else a typical one), at least a line or two a call, and chain summaries are joined rather than fused, as the offline
 * summarizer leaves them. The dry run's entries are then measured as the outcome's will be
 * (`sentAfterDraftsSteps`). Nothing is written; blob files are named, not written.
 *
 * Pure apart from its ports: the content hash (SHA-1, for the dedup pass) and the step runner (the
 * extension runs the planning in slices; default: at once).
 */
import type { CondenseState } from '../condense/state/condenseState';
import type { ContextPruneConfig } from '../config/types';
import type { SkippedBatchCounts } from '../flush/assembleBatches';
import type { ContentHasher } from '../flush/contentHash';
import type { FlushMode, FlushStatus, StepRunner } from '../flush/flushTypes';
import { runFlush } from '../flush/runFlush';
import { SummarizerError, type SummarizeRequest, type SummarizeResult, type Summarizer } from '../ports';
import type { ReleaseRules } from '../release/releases';
import { type ContextMessage, NO_USAGE, type SessionEntry } from '../session/types';
import { Pacer, runSteps, type Steps } from '../steps';
import { sentAfterDraftsSteps, type SentChange } from './sentAfterDrafts';

/** The share of a batch's output its summary takes when the session has no summary yet to measure. */
export const TYPICAL_SUMMARY_RATIO = 0.1;

/**
 * The shortest summary a call gets: naming the call and what it returned takes a line or two
 * whatever the output's size (the prompt asks for one to three bullets a call), so a small batch's
 * summary can come out longer than its output, and the release then skips it as oversized. On the
 * reference sessions the offline summaries' skips are met from about this length on.
 */
export const SUMMARY_CHARS_PER_CALL = 150;

/**
 * Above this share of the estimated reclaim, the summaries' assumed length alone could move the
 * result by more than the estimate's stated margin: the estimate says so.
 */
export const ESTIMATE_MARGIN = 0.15;

export interface FlushEstimate {
	readonly mode: FlushMode;
	/** `disabled`: `now` with pruning off (nothing looked at); else `completed`. */
	readonly status: FlushStatus;
	/** `now`: the batches pending (captured), of them those it summarizes, and those it skips by why. */
	readonly batches: number;
	readonly summarizedBatches: number;
	readonly skippedBatches: SkippedBatchCounts;
	readonly toolCalls: number;
	/** Output characters of the pending calls. */
	readonly rawChars: number;
	/** Chains its chain step compresses. */
	readonly compressedChains: number;
	/** Entries it would append. */
	readonly entries: number;
	/** The whole request the model is sent, now and after (serialized characters). */
	readonly sent: SentChange;
	/** Characters of the request it takes off (0 when it would add). */
	readonly reclaimChars: number;
	/** Characters of summary text assumed (bodies, at the ratio). */
	readonly summaryChars: number;
	/** Summary length over output length assumed, and where it comes from. */
	readonly summaryRatio: number;
	readonly ratioFrom: 'session' | 'typical';
	/**
	 * The assumed summaries are more than `ESTIMATE_MARGIN` of the reclaim: what the flush reclaims
	 * depends on how long the summaries come out, known only once they are written.
	 */
	readonly summariesDecide: boolean;
}

export interface EstimateInput {
	readonly mode: FlushMode;
	readonly branch: readonly SessionEntry[];
	/** Pi's context of the branch. */
	readonly messages: readonly ContextMessage[];
	/** What the model is sent now. */
	readonly sent: readonly ContextMessage[];
	readonly state: CondenseState;
	readonly config: ContextPruneConfig;
	readonly rules: ReleaseRules;
	/** The moment the entries would be written (epoch ms). */
	readonly now: number;
}

export interface EstimatePorts {
	readonly hash: ContentHasher;
	readonly runSteps?: StepRunner;
}

const DRY_RUN_MODEL = 'dry run (summaries at a stated ratio)';

export async function estimateFlush(input: EstimateInput, ports: EstimatePorts): Promise<FlushEstimate> {
	const run: StepRunner = ports.runSteps ?? ((steps) => Promise.resolve(runSteps(steps)));
	const { ratio, from } = await run(summaryRatioSteps(input.state));
	const summaries = ratioSummarizer(ratio);
	let rawChars = 0;
	const result = await runFlush({
		mode: input.mode,
		branch: input.branch,
		messages: input.messages,
		state: input.state,
		config: input.config,
		rules: input.rules,
		onProgress: (event) => {
			if (event.type === 'batches') {
				rawChars = event.batches.reduce((sum, batch) => sum + batch.rawChars, 0);
			}
		},
	}, {
		summarizer: summaries,
		hash: ports.hash,
		// The blob's name stands for its path: a backfilled record's path is not in what is sent.
		spill: { writeBlob: (name) => Promise.resolve(name) },
		now: () => input.now,
		runSteps: run,
	});
	const sent = await run(sentAfterDraftsSteps(input, result.drafts, input.now));
	const reclaimChars = Math.max(0, sent.beforeChars - sent.afterChars);
	const { report } = result;
	return {
		mode: input.mode,
		status: result.status,
		batches: report.batches,
		summarizedBatches: report.summarizedBatches,
		skippedBatches: report.skippedBatches,
		toolCalls: report.toolCalls,
		rawChars,
		compressedChains: report.compressedChains.length,
		entries: result.drafts.length,
		sent,
		reclaimChars,
		summaryChars: summaries.chars(),
		summaryRatio: ratio,
		ratioFrom: from,
		summariesDecide: summaries.chars() > ESTIMATE_MARGIN * reclaimChars,
	};
}

/**
 * Answers each batch at once with a text of `ratio` times its calls' output, at least
 * `SUMMARY_CHARS_PER_CALL` a call (counted), and declines to fuse chain summaries (they are joined,
 * as without a model).
 */
function ratioSummarizer(ratio: number): Summarizer & { chars(): number } {
	let chars = 0;
	return {
		label: DRY_RUN_MODEL,
		chars: () => chars,
		summarize(request: SummarizeRequest): Promise<SummarizeResult> {
			if (request.input?.kind !== 'batch') {
				return Promise.reject(new SummarizerError('model', 'A dry run joins chain summaries instead of fusing them.'));
			}
			const output = request.input.calls.reduce((sum, call) => sum + call.resultText.length, 0);
			const length = Math.max(Math.round(output * ratio), SUMMARY_CHARS_PER_CALL * request.input.calls.length);
			chars += length;
			return Promise.resolve({ text: 's'.repeat(length), usage: NO_USAGE, model: DRY_RUN_MODEL });
		},
	};
}

/**
 * This session's summaries over the output of the calls they cover (what its model and prompt have
 * produced so far), kept between 2% and 50%; the typical share when there is none to measure.
 */
export function* summaryRatioSteps(state: CondenseState): Steps<{ readonly ratio: number; readonly from: 'session' | 'typical' }> {
	const pacer = new Pacer();
	let summaryChars = 0;
	let rawChars = 0;
	for (const summary of state.summaries) {
		summaryChars += summary.text.length;
		for (const ref of summary.refs) {
			const record = state.records.get(ref.key)?.record;
			rawChars += record ? record.resultText.length || record.spillBytes || 0 : 0;
		}
		if (pacer.due(summary.refs.length)) {
			yield;
		}
	}
	if (summaryChars === 0 || rawChars === 0) {
		return { ratio: TYPICAL_SUMMARY_RATIO, from: 'typical' };
	}
	return { ratio: Math.min(0.5, Math.max(0.02, summaryChars / rawChars)), from: 'session' };
}

/**
 * Carries out the chain jobs in order, as the release does: each compressed chain gets the next
 * `bN`. A covered chain is fused by one summarizer call when configured and it has two or more
 * summaries (a failed or empty fusion is not an error: the chain keeps no `rangeSummaryText` and
 * renders the summaries joined). A deterministic chain (2.9.0+) first backfills its fresh records
 * (large ones spilled; a failed spill skips the chain, fail-closed) in one index entry with the
 * `tN` refs it allocates, then gets the deterministic body. A chain with nothing to backfill and
 * nothing indexed writes a `backfill-empty` diagnostic instead. Pure apart from the ports.
 */
import { utf8ByteLength } from '../condense/recovery/utf8';
import type { CondenseState } from '../condense/state/condenseState';
import { summaryRef } from '../condense/summaryContent';
import type { ChainCompressionEntry, ToolCallRecord } from '../condense/types';
import type { ReleaseRules } from '../release/releases';
import type { Summarizer } from '../ports';
import type { EntryDraft } from '../write/entryEnvelope';
import type { DedupIndex } from './dedupIndex';
import { backfilledRecord, backfillIndexDraft, chainDraft, diagnosticDraft } from './entryDrafts';
import type { StatsAccumulator } from './flushStats';
import type { ProgressSink } from './flushProgress';
import { headPreview } from './headPreview';
import { spillBlobName } from './spillNames';
import { mapLimited } from './mapLimited';
import { rangePrompt } from './prompt/rangePrompt';
import type { SpillSettings, SpillWriter } from './spillPhase';
import { chainEntry, chainToolRefs, refsByKey } from '../chains/chainEntry';
import { deterministicChainBody } from '../chains/deterministicBody';
import { isDeterministic, type ChainJob, type ChainSkip } from '../chains/planChains';

export interface ChainPhaseOptions {
	readonly rules: ReleaseRules;
	/** The state as it reads after the batch phase (refs, counters). */
	readonly state: CondenseState;
	/** The next `tN` (after the batch phase, burned numbers included). */
	readonly firstRefNumber: number;
	readonly fuseRangeSummary: boolean;
	readonly summarizer: Summarizer;
	readonly spill: SpillWriter | undefined;
	readonly spillSettings: SpillSettings;
	readonly dedup: DedupIndex;
	readonly stats: StatsAccumulator;
	readonly now: () => number;
	readonly concurrency: number;
	readonly signal?: AbortSignal;
	readonly progress: ProgressSink;
	/**
	 * Lets the caller's thread go if it has been held long (a session has thousands of chains, and
	 * awaiting work that is already done never does). Default: never pauses.
	 */
	readonly pause?: () => Promise<void>;
}

export interface CompressedChain {
	readonly entry: ChainCompressionEntry;
	/** Result characters of the dropped calls' records (backfilled ones included). */
	readonly droppedChars: number;
}

export interface ChainPhase {
	readonly drafts: readonly EntryDraft[];
	readonly compressed: readonly CompressedChain[];
	readonly fused: number;
	/** Deterministic chains skipped because a backfill spill failed (retried at the next flush). */
	readonly failedBackfills: number;
	readonly spilledResults: number;
	readonly aborted: boolean;
}

export async function compressChains(jobs: readonly ChainJob[], emptyChains: readonly ChainSkip[], options: ChainPhaseOptions): Promise<ChainPhase> {
	const drafts: EntryDraft[] = [];
	const diagnostics = options.rules.diagnosticEntries ? emptyChains.filter((skip) => skip.reason === 'backfill-empty') : [];
	if (jobs.length === 0) {
		drafts.push(...diagnostics.map((skip) => backfillEmptyDraft(skip)));
		return { drafts, compressed: [], fused: 0, failedBackfills: 0, spilledResults: 0, aborted: false };
	}
	options.progress({ type: 'chains', count: jobs.length });
	const fusions = await mapLimited(jobs, options.concurrency, (job) => fuse(job, options));
	if (options.signal?.aborted) {
		return { drafts: [], compressed: [], fused: 0, failedBackfills: 0, spilledResults: 0, aborted: true };
	}
	const compressed: CompressedChain[] = [];
	let block = options.state.nextBlockNumber;
	let nextRef = options.firstRefNumber;
	let fused = 0;
	let failedBackfills = 0;
	let spilledResults = 0;
	// Diagnostics are written where the release meets the chain, between the compressed ones.
	const pendingDiagnostics = [...diagnostics];
	const flushDiagnosticsBefore = (start: number): void => {
		while (pendingDiagnostics[0] && pendingDiagnostics[0].chain.startIndex < start) {
			drafts.push(backfillEmptyDraft(pendingDiagnostics.shift() as ChainSkip));
		}
	};
	for (const [i, job] of jobs.entries()) {
		await options.pause?.();
		flushDiagnosticsBefore(job.chain.startIndex);
		let body = fusions[i];
		let backfilledRefs = new Map<string, string>();
		let backfilledChars = 0;
		if (isDeterministic(job)) {
			const backfill = await backfillRecords(job.fresh, options);
			if (backfill === undefined) {
				failedBackfills++;
				continue;
			}
			spilledResults += backfill.filter((record) => record.spillPath !== undefined).length;
			if (backfill.length > 0) {
				const refs = backfill.map((record, n) => summaryRef(`t${nextRef + n}`, record.toolCallId, record.resultTimestamp));
				nextRef += refs.length;
				drafts.push(backfillIndexDraft(backfill, refs));
				backfilledRefs = refsByKey(refs);
				backfilledChars = job.fresh.reduce((sum, record) => sum + record.resultText.length, 0);
			}
			body = deterministicChainBody([...job.indexed, ...backfill], chainToolRefs(job, options.state, backfilledRefs));
		} else if (body !== undefined) {
			fused++;
		}
		const entry = chainEntry(job, `b${block++}`, options.now(), body, options.state, backfilledRefs);
		drafts.push(chainDraft(entry));
		compressed.push({ entry, droppedChars: job.indexedChars + backfilledChars });
		options.progress({ type: 'chain-done', blockId: entry.blockId, fused: body !== undefined && !isDeterministic(job) });
	}
	flushDiagnosticsBefore(Number.POSITIVE_INFINITY);
	options.stats.addChains(compressed.length, fused);
	return { drafts, compressed, fused, failedBackfills, spilledResults, aborted: false };
}

function backfillEmptyDraft(skip: ChainSkip): EntryDraft {
	return diagnosticDraft('backfill-empty', `middles=${skip.chain.middleToolCallIds.length}`);
}

/** The fused text, or undefined (not configured, fewer than two summaries, or the call failed). */
async function fuse(job: ChainJob, options: ChainPhaseOptions): Promise<string | undefined> {
	await options.pause?.();
	if (!options.fuseRangeSummary || job.summaries.length < 2 || options.signal?.aborted) {
		return undefined;
	}
	const { prompt, input } = rangePrompt(job.summaries);
	try {
		const result = await options.summarizer.summarize({ prompt, input, signal: options.signal });
		options.stats.addCall(result.usage.input, result.usage.output, result.usage.cost.total);
		return result.text.trim() === '' ? undefined : result.text;
	} catch {
		// A failed fusion is not fatal: the renderer concatenates the per-batch summaries.
		return undefined;
	}
}

/**
 * The fresh records as the backfill writes them: results of at least `spillThreshold` characters
 * go to `<occurrence key, sanitized>.txt` and keep only their size, preview and hash. Undefined
 * when a blob write failed (the whole backfill is abandoned).
 */
async function backfillRecords(fresh: readonly ToolCallRecord[], options: ChainPhaseOptions): Promise<ToolCallRecord[] | undefined> {
	const records: ToolCallRecord[] = [];
	const { spill, spillSettings } = options;
	for (const record of fresh) {
		if (!spill || spillSettings.spillThreshold <= 0 || record.resultText.length < spillSettings.spillThreshold) {
			records.push(backfilledRecord(record));
			continue;
		}
		const contentHash = options.dedup.keyOf(record.toolName, record.resultText);
		let spillPath: string;
		try {
			spillPath = await spill.writeBlob(spillBlobName(record.toolCallId, record.resultTimestamp), record.resultText);
		} catch {
			return undefined;
		}
		records.push(backfilledRecord({
			...record,
			resultText: '',
			spillBytes: utf8ByteLength(record.resultText),
			resultPreview: headPreview(record.resultText, spillSettings.spillPreviewBytes),
			spillPath,
			contentHash,
		}));
	}
	return records;
}

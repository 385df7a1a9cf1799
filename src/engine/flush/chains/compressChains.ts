/**
 * Carries out the chain jobs: backfills unindexed middle calls (spilling large ones), fuses two or
 * more covering summaries with one summarizer call per chain when configured (a failed or empty
 * fusion is not an error: the chain keeps the concatenated summaries, i.e. no
 * `rangeSummaryText`), gives deterministic bodies to chains without summaries, and builds the
 * `context-prune-chain` entries. Block ids continue from the branch's highest `bN`. Pure apart
 * from the ports.
 */
import type { Summarizer } from '../../ports';
import type { ChainCompressionEntry, ToolCallRecord } from '../../condense/types';
import type { EntryDraft } from '../../write/entryEnvelope';
import type { DedupIndex } from '../dedupIndex';
import { chainDraft, indexDraft } from '../entryDrafts';
import type { StatsAccumulator } from '../flushStats';
import type { ProgressSink } from '../flushProgress';
import { mapLimited } from '../mapLimited';
import { rangePrompt } from '../prompt/rangePrompt';
import { shouldSpill, spillOne, type SpillSettings, type SpillWriter } from '../spillPhase';
import { deterministicChainBody, type BodyCall } from './deterministicBody';
import { backfillRecord, type BackfillCall, type ChainJob } from './planChains';

export interface ChainPhaseOptions {
	readonly firstBlockNumber: number;
	readonly fuseRangeSummary: boolean;
	readonly summarizer: Summarizer;
	readonly spill: SpillWriter | undefined;
	readonly spillSettings: SpillSettings;
	readonly namesInUse: Set<string>;
	readonly dedup: DedupIndex;
	readonly stats: StatsAccumulator;
	readonly now: () => number;
	readonly concurrency: number;
	readonly signal?: AbortSignal;
	readonly progress: ProgressSink;
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
	readonly aborted: boolean;
}

export async function compressChains(jobs: readonly ChainJob[], options: ChainPhaseOptions): Promise<ChainPhase> {
	if (jobs.length === 0) {
		return { drafts: [], compressed: [], fused: 0, aborted: false };
	}
	options.progress({ type: 'chains', count: jobs.length });
	const fusions = await mapLimited(jobs, options.concurrency, (job) => fuse(job, options));
	if (options.signal?.aborted) {
		return { drafts: [], compressed: [], fused: 0, aborted: true };
	}
	const drafts: EntryDraft[] = [];
	const compressed: CompressedChain[] = [];
	let block = options.firstBlockNumber;
	let fused = 0;
	for (const [i, job] of jobs.entries()) {
		const backfilled = await backfill(job.backfill, options);
		if (backfilled.length > 0) {
			drafts.push(indexDraft(backfilled));
		}
		const fusion = fusions[i];
		const body = job.summaries.length === 0 ? deterministicChainBody(bodyCalls(job, backfilled)) : fusion;
		const entry = chainEntry(job, `b${block++}`, options.now(), body, job.summaries.length === 0);
		if (fusion !== undefined && job.summaries.length > 0) {
			fused++;
		}
		drafts.push(chainDraft(entry));
		compressed.push({ entry, droppedChars: job.indexedChars + backfilled.reduce((sum, record) => sum + record.resultText.length, 0) });
		options.progress({ type: 'chain-done', blockId: entry.blockId, fused: fusion !== undefined });
	}
	options.stats.addChains(compressed.length, fused);
	return { drafts, compressed, fused, aborted: false };
}

/** The fused text, or undefined (not configured, fewer than two summaries, or the call failed). */
async function fuse(job: ChainJob, options: ChainPhaseOptions): Promise<string | undefined> {
	if (!options.fuseRangeSummary || job.summaries.length < 2 || options.signal?.aborted) {
		return undefined;
	}
	const { prompt, input } = rangePrompt(job.summaries);
	try {
		const result = await options.summarizer.summarize({ prompt, input, signal: options.signal });
		options.stats.addCall(result.usage);
		return result.text.trim() === '' ? undefined : result.text;
	} catch {
		// A failed fusion is not fatal: the renderer concatenates the per-batch summaries.
		return undefined;
	}
}

async function backfill(calls: readonly BackfillCall[], options: ChainPhaseOptions): Promise<ToolCallRecord[]> {
	const records: ToolCallRecord[] = [];
	for (const call of calls) {
		const inline = backfillRecord(call);
		if (shouldSpill(call.resultText, options.spillSettings, options.spill)) {
			const contentKey = options.dedup.keyOf(call.toolName, call.resultText);
			const spilled = await spillOne({ ...call, turnIndex: inline.turnIndex, timestamp: inline.timestamp, contentKey }, options.spill, options.spillSettings.spillPreviewBytes, options.namesInUse);
			records.push(typeof spilled === 'string' ? inline : spilled);
		} else {
			records.push(inline);
		}
	}
	return records;
}

/** The calls of a deterministic body: indexed ones with their refs, backfilled ones as their new records. */
export function bodyCalls(job: ChainJob, backfilled: readonly ToolCallRecord[]): BodyCall[] {
	let next = 0;
	return job.middle.map((item) => (item.kind === 'indexed' ? item.call : { record: backfilled[next++] as ToolCallRecord, ref: undefined }));
}

/** pi-condense's key order; `bodySource` marks a deterministic body, as 2.9.0 does. */
export function chainEntry(job: ChainJob, blockId: string, compressedAt: number, body: string | undefined, deterministic: boolean): ChainCompressionEntry {
	const { chain } = job;
	return {
		blockId,
		startUserTimestamp: chain.startUserTimestamp,
		droppedToolCallIds: chain.middleToolCallIds,
		...(chain.protectedToolCallIds.length > 0 ? { protectedToolCallIds: chain.protectedToolCallIds } : {}),
		finalAssistantTimestamp: chain.finalAssistantTimestamp,
		toolRefs: job.toolRefs,
		compressedAt,
		...(body !== undefined ? { rangeSummaryText: body } : {}),
		...(deterministic ? { bodySource: 'deterministic' } : {}),
	};
}

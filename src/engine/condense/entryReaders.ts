/**
 * Tolerant readers for pi-condense's entry payloads. Pure.
 *
 * Each reader returns the typed payload, or a reason string when the payload cannot be used. The
 * caller turns reasons into diagnostics and skips the entry: a malformed entry written by some
 * other version or a hand edit never stops the rest of the session from rendering.
 */
import type {
	ChainCompressionEntry, DedupAliasEntryData, PruneFrontier, PruneFrontierOutcome, SummarizerStats,
	SummaryToolCallRef, ToolCallRecord,
} from './types';
import { isFiniteNumber, isStringArray, numberOr, type JsonObject } from './valueGuards';
import { isPlainObject } from '../../base/plainObject';

export type ReadResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

const ok = <T>(value: T): ReadResult<T> => ({ ok: true, value });
const fail = <T>(reason: string): ReadResult<T> => ({ ok: false, reason });

/** One record of an index entry; optional fields of the wrong type are dropped. */
export function readToolCallRecord(value: unknown): ReadResult<ToolCallRecord> {
	if (!isPlainObject(value)) {
		return fail('record is not an object');
	}
	const { toolCallId, toolName, args, resultText, isError, turnIndex, timestamp } = value;
	if (typeof toolCallId !== 'string' || toolCallId === '') {
		return fail('record has no toolCallId');
	}
	if (typeof toolName !== 'string' || typeof resultText !== 'string' || typeof isError !== 'boolean') {
		return fail(`record ${toolCallId} lacks toolName, resultText or isError`);
	}
	if (!isPlainObject(args) || !isFiniteNumber(turnIndex) || !isFiniteNumber(timestamp)) {
		return fail(`record ${toolCallId} lacks args, turnIndex or timestamp`);
	}
	return ok({ toolCallId, toolName, args, resultText, isError, turnIndex, timestamp, ...optionalRecordFields(value) });
}

function optionalRecordFields(value: JsonObject): Partial<ToolCallRecord> {
	const out: { resultTimestamp?: number; spillPath?: string; spillBytes?: number; resultPreview?: string; contentHash?: string } = {};
	if (typeof value.resultTimestamp === 'number') {
		out.resultTimestamp = value.resultTimestamp;
	}
	if (typeof value.spillPath === 'string') {
		out.spillPath = value.spillPath;
	}
	if (isFiniteNumber(value.spillBytes)) {
		out.spillBytes = value.spillBytes;
	}
	if (typeof value.resultPreview === 'string') {
		out.resultPreview = value.resultPreview;
	}
	if (typeof value.contentHash === 'string') {
		out.contentHash = value.contentHash;
	}
	return out;
}

export interface IndexEntryRead {
	/** The raw records (read one by one by the caller). */
	readonly toolCalls: readonly unknown[];
	/** 2.9.0+: the entry was written by a deterministic chain compression. */
	readonly backfilled: boolean;
	/** 2.9.0+: the refs a backfilled entry carries (empty otherwise). */
	readonly refs: readonly SummaryToolCallRef[];
}

export function readIndexEntry(data: unknown): ReadResult<IndexEntryRead> {
	if (!isPlainObject(data) || !Array.isArray(data.toolCalls)) {
		return fail('index entry has no toolCalls array');
	}
	const backfilled = data.backfilled === true;
	const refs = backfilled && Array.isArray(data.refs) ? readRefs(data.refs).refs : [];
	return ok({ toolCalls: data.toolCalls, backfilled, refs });
}

/** `{shortId, toolCallId, resultTimestamp?}` refs; items of another shape are counted, not kept. */
function readRefs(items: readonly unknown[]): { readonly refs: SummaryToolCallRef[]; readonly invalid: number } {
	const refs: SummaryToolCallRef[] = [];
	let invalid = 0;
	for (const ref of items) {
		if (isPlainObject(ref) && typeof ref.shortId === 'string' && typeof ref.toolCallId === 'string') {
			const base = { shortId: ref.shortId, toolCallId: ref.toolCallId };
			refs.push(typeof ref.resultTimestamp === 'number' ? { ...base, resultTimestamp: ref.resultTimestamp } : base);
		} else {
			invalid++;
		}
	}
	return { refs, invalid };
}

export interface SummaryDetailsRead {
	readonly toolCallRefs: readonly SummaryToolCallRef[];
	readonly turnIndex: number | undefined;
	readonly timestamp: number | undefined;
	/** Refs that were not `{shortId, toolCallId}` strings. */
	readonly invalidRefs: number;
}

/**
 * Summary details. Besides `toolCallRefs`, pi-condense still reads the oldest shape, a bare
 * `toolCallIds` list, as refs whose short id is the tool-call id itself.
 */
export function readSummaryDetails(details: unknown): ReadResult<SummaryDetailsRead> {
	if (!isPlainObject(details)) {
		return fail('summary has no details.toolCallRefs');
	}
	let refs: SummaryToolCallRef[];
	let invalidRefs = 0;
	if (Array.isArray(details.toolCallRefs)) {
		({ refs, invalid: invalidRefs } = readRefs(details.toolCallRefs));
	} else if (Array.isArray(details.toolCallIds)) {
		refs = details.toolCallIds.filter((id): id is string => typeof id === 'string').map((id) => ({ shortId: id, toolCallId: id }));
	} else {
		return fail('summary has no details.toolCallRefs');
	}
	const turnIndex = isFiniteNumber(details.turnIndex) ? details.turnIndex : undefined;
	const timestamp = isFiniteNumber(details.timestamp) ? details.timestamp : undefined;
	return ok({ toolCallRefs: refs, turnIndex, timestamp, invalidRefs });
}

export function readDedupAlias(data: unknown): ReadResult<DedupAliasEntryData> {
	if (!isPlainObject(data) || typeof data.newToolCallId !== 'string' || typeof data.originalToolCallId !== 'string') {
		return fail('dedup alias lacks newToolCallId or originalToolCallId');
	}
	return ok({
		newToolCallId: data.newToolCallId,
		originalToolCallId: data.originalToolCallId,
		...(typeof data.hash === 'string' ? { hash: data.hash } : {}),
		...(typeof data.newResultTimestamp === 'number' ? { newResultTimestamp: data.newResultTimestamp } : {}),
		...(typeof data.originalResultTimestamp === 'number' ? { originalResultTimestamp: data.originalResultTimestamp } : {}),
	});
}

export function readChainEntry(data: unknown): ReadResult<ChainCompressionEntry> {
	if (!isPlainObject(data) || typeof data.blockId !== 'string' || !isFiniteNumber(data.startUserTimestamp)) {
		return fail('chain entry lacks blockId or startUserTimestamp');
	}
	const final = data.finalAssistantTimestamp ?? null;
	if (!isStringArray(data.droppedToolCallIds) || !isFiniteNumber(data.compressedAt) || !(final === null || isFiniteNumber(final))) {
		return fail(`chain ${data.blockId} lacks droppedToolCallIds, compressedAt or finalAssistantTimestamp`);
	}
	const entry: ChainCompressionEntry = {
		blockId: data.blockId,
		startUserTimestamp: data.startUserTimestamp,
		droppedToolCallIds: data.droppedToolCallIds,
		finalAssistantTimestamp: final,
		toolRefs: isStringArray(data.toolRefs) ? data.toolRefs : [],
		compressedAt: data.compressedAt,
	};
	return ok({
		...entry,
		...(isStringArray(data.protectedToolCallIds) ? { protectedToolCallIds: data.protectedToolCallIds } : {}),
		...(typeof data.rangeSummaryText === 'string' ? { rangeSummaryText: data.rangeSummaryText } : {}),
		...(data.bodySource === 'deterministic' ? { bodySource: 'deterministic' as const } : {}),
		...(isStringArray(data.droppedOccurrenceKeys) ? { droppedOccurrenceKeys: data.droppedOccurrenceKeys } : {}),
	});
}

const OUTCOMES: readonly PruneFrontierOutcome[] = ['summarized', 'skipped-oversized', 'skipped-trivial', 'skipped-deduped'];

/** Missing numbers default as pi-condense's own reader does; only the boundary id is required. */
export function readFrontier(data: unknown): ReadResult<PruneFrontier> {
	if (!isPlainObject(data) || typeof data.lastAttemptedToolCallId !== 'string' || data.lastAttemptedToolCallId === '') {
		return fail('frontier lacks lastAttemptedToolCallId');
	}
	const outcome = OUTCOMES.find((o) => o === data.outcome) ?? 'summarized';
	return ok({
		lastAttemptedToolCallId: data.lastAttemptedToolCallId,
		lastAttemptedToolName: typeof data.lastAttemptedToolName === 'string' ? data.lastAttemptedToolName : 'unknown',
		lastAttemptedTurnIndex: numberOr(data.lastAttemptedTurnIndex, 0),
		lastAttemptedTimestamp: numberOr(data.lastAttemptedTimestamp, 0),
		attemptedBatchCount: numberOr(data.attemptedBatchCount, 0),
		attemptedToolCallCount: numberOr(data.attemptedToolCallCount, 0),
		rawCharCount: numberOr(data.rawCharCount, 0),
		summaryCharCount: numberOr(data.summaryCharCount, 0),
		outcome,
		...(typeof data.thinkingStripBoundaryTimestamp === 'number' ? { thinkingStripBoundaryTimestamp: data.thinkingStripBoundaryTimestamp } : {}),
	});
}

/** A stats snapshot; missing counters read as 0 (pi-condense's own rule). */
export function readStats(data: unknown): ReadResult<SummarizerStats> {
	if (!isPlainObject(data)) {
		return fail('stats entry has no data object');
	}
	return ok({
		totalInputTokens: numberOr(data.totalInputTokens, 0),
		totalOutputTokens: numberOr(data.totalOutputTokens, 0),
		totalCost: numberOr(data.totalCost, 0),
		callCount: numberOr(data.callCount, 0),
		chainsCompressed: numberOr(data.chainsCompressed, 0),
		rangesSummarized: numberOr(data.rangesSummarized, 0),
	});
}

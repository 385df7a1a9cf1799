/**
 * The entry drafts a flush writes, with pi-condense's exact payload shapes and key order, as the
 * user's release writes them: the summary message (content = summary + refs footer, `details`;
 * `display` true in 2.0.0, false from 2.0.1), index, dedup alias, frontier, stats, chain,
 * diagnostic and flush-metrics entries. Optional fields are omitted when unset, so a release that
 * does not know a field never writes it (the callers decide which fields a release sets). Pure.
 */
import {
	CUSTOM_TYPE_CHAIN, CUSTOM_TYPE_DEDUP_ALIAS, CUSTOM_TYPE_DIAGNOSTIC, CUSTOM_TYPE_FRONTIER, CUSTOM_TYPE_INDEX,
	CUSTOM_TYPE_STATS, CUSTOM_TYPE_SUMMARY,
	type ChainCompressionEntry, type DedupAliasEntryData, type IndexEntryData, type PruneFrontier,
	type SummarizerStats, type SummaryMessageDetails, type SummaryToolCallRef, type ToolCallRecord,
} from '../condense/types';
import type { CustomEntryDraft, CustomMessageEntryDraft } from '../write/entryEnvelope';

export function summaryDraft(content: string, details: SummaryMessageDetails, display: boolean): CustomMessageEntryDraft {
	return { type: 'custom_message', customType: CUSTOM_TYPE_SUMMARY, content, display, details };
}

export function indexDraft(records: readonly ToolCallRecord[]): CustomEntryDraft {
	const data: IndexEntryData = { toolCalls: records };
	return { type: 'custom', customType: CUSTOM_TYPE_INDEX, data };
}

/** 2.9.0+: the index entry of a chain backfill, with the refs it allocated. */
export function backfillIndexDraft(records: readonly ToolCallRecord[], refs: readonly SummaryToolCallRef[]): CustomEntryDraft {
	const data: IndexEntryData = { toolCalls: records, backfilled: true, refs };
	return { type: 'custom', customType: CUSTOM_TYPE_INDEX, data };
}

/** Alias fields in pi-condense's order; each timestamp only when that side's key has one. */
export function aliasDraft(newToolCallId: string, originalToolCallId: string, newResultTimestamp?: number, originalResultTimestamp?: number): CustomEntryDraft {
	const data: DedupAliasEntryData = {
		newToolCallId,
		originalToolCallId,
		...(newResultTimestamp !== undefined ? { newResultTimestamp } : {}),
		...(originalResultTimestamp !== undefined ? { originalResultTimestamp } : {}),
	};
	return { type: 'custom', customType: CUSTOM_TYPE_DEDUP_ALIAS, data };
}

export function frontierDraft(frontier: PruneFrontier): CustomEntryDraft {
	return { type: 'custom', customType: CUSTOM_TYPE_FRONTIER, data: frontier };
}

export function statsDraft(stats: SummarizerStats): CustomEntryDraft {
	return { type: 'custom', customType: CUSTOM_TYPE_STATS, data: stats };
}

export function chainDraft(entry: ChainCompressionEntry): CustomEntryDraft {
	return { type: 'custom', customType: CUSTOM_TYPE_CHAIN, data: entry };
}

/** 2.6.0+: `{kind, detail}` (never read back). */
export function diagnosticDraft(kind: string, detail: string): CustomEntryDraft {
	return { type: 'custom', customType: CUSTOM_TYPE_DIAGNOSTIC, data: { kind, detail } };
}

/**
 * A record in pi-condense's key order for records built by a batch (`addBatch`): the seven base
 * fields, then `resultTimestamp`, `spillPath`, `spillBytes`, `resultPreview`, `contentHash`, each
 * only when set.
 */
export function toolCallRecord(fields: ToolCallRecord): ToolCallRecord {
	const { toolCallId, toolName, args, resultText, isError, turnIndex, timestamp, resultTimestamp, spillPath, spillBytes, resultPreview, contentHash } = fields;
	return {
		toolCallId, toolName, args, resultText, isError, turnIndex, timestamp,
		...(resultTimestamp !== undefined ? { resultTimestamp } : {}),
		...(spillPath !== undefined ? { spillPath } : {}),
		...(spillBytes !== undefined ? { spillBytes } : {}),
		...(resultPreview !== undefined ? { resultPreview } : {}),
		...(contentHash !== undefined ? { contentHash } : {}),
	};
}

/**
 * A backfilled record (2.9.0+) in its own key order: the spill step sets `spillBytes`,
 * `resultPreview`, `spillPath` and `contentHash` on an already built record, in that order.
 */
export function backfilledRecord(fields: ToolCallRecord): ToolCallRecord {
	const { toolCallId, toolName, args, resultText, isError, turnIndex, timestamp, resultTimestamp, spillPath, spillBytes, resultPreview, contentHash } = fields;
	return {
		toolCallId, toolName, args, resultText, isError, turnIndex, timestamp,
		...(resultTimestamp !== undefined ? { resultTimestamp } : {}),
		...(spillBytes !== undefined ? { spillBytes } : {}),
		...(resultPreview !== undefined ? { resultPreview } : {}),
		...(spillPath !== undefined ? { spillPath } : {}),
		...(contentHash !== undefined ? { contentHash } : {}),
	};
}

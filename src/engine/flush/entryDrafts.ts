/**
 * The entry drafts a flush writes, with pi-condense's exact payload shapes and key order: the
 * summary message (content = summary + refs footer, `details`), index, dedup alias, frontier,
 * stats and chain entries. Summaries are written with `display: false` (2.0.1 and later: hidden in
 * Pi's TUI, no effect on what the model is sent). Pure.
 */
import {
	CUSTOM_TYPE_CHAIN, CUSTOM_TYPE_DEDUP_ALIAS, CUSTOM_TYPE_FRONTIER, CUSTOM_TYPE_INDEX, CUSTOM_TYPE_STATS, CUSTOM_TYPE_SUMMARY,
	type ChainCompressionEntry, type DedupAliasEntryData, type IndexEntryData, type PruneFrontier, type SummarizerStats,
	type SummaryMessageDetails, type SummaryToolCallRef, type ToolCallRecord,
} from '../condense/types';
import type { CustomEntryDraft, CustomMessageEntryDraft } from '../write/entryEnvelope';

/** The footer every summary ends with, byte-exact with pi-condense. */
export function refsFooter(refs: readonly string[]): string {
	return `\n\n---\n**Summarized tool refs**: ${refs.map((ref) => `\`${ref}\``).join(', ')}\n` +
		'Use `context_tree_query` with these refs to retrieve the original full outputs.';
}

export function summaryDraft(content: string, details: SummaryMessageDetails): CustomMessageEntryDraft {
	return { type: 'custom_message', customType: CUSTOM_TYPE_SUMMARY, content, display: false, details };
}

export function summaryDetails(refs: readonly SummaryToolCallRef[], toolNames: readonly string[], turnIndex: number, timestamp: number): SummaryMessageDetails {
	return { toolCallRefs: refs, toolNames, turnIndex, timestamp };
}

export function indexDraft(records: readonly ToolCallRecord[]): CustomEntryDraft {
	const data: IndexEntryData = { toolCalls: records };
	return { type: 'custom', customType: CUSTOM_TYPE_INDEX, data };
}

export function aliasDraft(newToolCallId: string, originalToolCallId: string): CustomEntryDraft {
	const data: DedupAliasEntryData = { newToolCallId, originalToolCallId };
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

/** A record in pi-condense's key order (spill fields only when set). */
export function toolCallRecord(fields: ToolCallRecord): ToolCallRecord {
	const { toolCallId, toolName, args, resultText, isError, turnIndex, timestamp, spillPath, spillBytes, resultPreview, contentHash } = fields;
	const record: ToolCallRecord = { toolCallId, toolName, args, resultText, isError, turnIndex, timestamp };
	return spillPath === undefined ? record : { ...record, spillPath, spillBytes, resultPreview, contentHash };
}

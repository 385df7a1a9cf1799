/**
 * Completes a flush that was interrupted between two of its lines (a killed process), so the next
 * flush neither loses nor repeats work. Pure.
 *
 * A flush writes each summary immediately followed by its index entry. The only state a kill can
 * leave that a rescan would misread is a summary whose index entry never made it: its calls look
 * unsummarized and would be summarized a second time. Its index entry is rebuilt from the branch
 * (the calls and results before the summary, with the summary's own turn index and timestamp), so
 * exactly that entry is written. Everything else a kill can leave is consistent by construction
 * (aliases, spill and chain entries are single lines; a missing frontier only makes the next flush
 * retry skipped batches).
 *
 * Stats: summaries and chain entries after the last stats snapshot were not counted in it. Their
 * calls are added to `callCount` (their token usage is unknown), chains to `chainsCompressed` and
 * fused chains to `rangesSummarized`.
 */
import type { CondenseState, SummaryInfo } from '../condense/state/condenseState';
import { contentText } from '../condense/occurrence';
import { CUSTOM_TYPE_CHAIN, CUSTOM_TYPE_STATS, CUSTOM_TYPE_SUMMARY, type ToolCallRecord } from '../condense/types';
import type { SessionEntry, ToolCall, ToolResultMessage } from '../session/types';
import type { EntryDraft } from '../write/entryEnvelope';
import { indexDraft, toolCallRecord } from './entryDrafts';

export interface IndexRepair {
	readonly drafts: readonly EntryDraft[];
	/** Entry ids of the summaries whose index entries are rebuilt. */
	readonly summaryEntryIds: readonly string[];
}

export function planIndexRepairs(branch: readonly SessionEntry[], state: CondenseState): IndexRepair {
	const drafts: EntryDraft[] = [];
	const summaryEntryIds: string[] = [];
	let positions: Map<string, number> | undefined;
	for (const summary of state.summaries) {
		if (summary.refs.length === 0 || summary.refs.some((ref) => state.records.has(ref.key))) {
			continue;
		}
		positions ??= new Map(branch.map((entry, i) => [entry.id, i]));
		const records = rebuildRecords(branch, positions.get(summary.entryId), summary);
		if (records) {
			drafts.push(indexDraft(records));
			summaryEntryIds.push(summary.entryId);
		}
	}
	return { drafts, summaryEntryIds };
}

/** The records of a summary's calls, from the branch before it; undefined if any call is missing. */
function rebuildRecords(branch: readonly SessionEntry[], position: number | undefined, summary: SummaryInfo): ToolCallRecord[] | undefined {
	if (position === undefined) {
		return undefined;
	}
	const wanted = new Set(summary.refs.map((ref) => ref.toolCallId));
	const results = new Map<string, ToolResultMessage>();
	const calls = new Map<string, { readonly call: ToolCall; readonly turnIndex: number }>();
	let turnIndex = -1;
	for (let i = 0; i < position; i++) {
		const entry = branch[i];
		if (entry?.type !== 'message') {
			continue;
		}
		const message = entry.message;
		if (message.role === 'assistant') {
			turnIndex++;
			for (const block of message.content) {
				if (block.type === 'toolCall' && wanted.has(block.id)) {
					calls.set(block.id, { call: block, turnIndex });
					results.delete(block.id);
				}
			}
		} else if (message.role === 'toolResult' && calls.has(message.toolCallId)) {
			results.set(message.toolCallId, message);
		}
	}
	const records: ToolCallRecord[] = [];
	for (const ref of summary.refs) {
		const found = calls.get(ref.toolCallId);
		const result = results.get(ref.toolCallId);
		if (!found || !result) {
			return undefined;
		}
		records.push(toolCallRecord({
			toolCallId: ref.toolCallId,
			toolName: found.call.name,
			args: found.call.arguments,
			resultText: contentText(result.content),
			isError: result.isError,
			turnIndex: summary.turnIndex ?? found.turnIndex,
			timestamp: summary.timestamp ?? result.timestamp,
		}));
	}
	return records;
}

export interface UncountedWork {
	readonly summaries: number;
	readonly chains: number;
	readonly fusedChains: number;
}

/** Summaries and chains after the last stats snapshot on the branch. */
export function uncountedSinceLastStats(branch: readonly SessionEntry[]): UncountedWork {
	let summaries = 0;
	let chains = 0;
	let fusedChains = 0;
	for (let i = branch.length - 1; i >= 0; i--) {
		const entry = branch[i] as SessionEntry;
		if (entry.type === 'custom' && entry.customType === CUSTOM_TYPE_STATS) {
			break;
		}
		if (entry.type === 'custom_message' && entry.customType === CUSTOM_TYPE_SUMMARY) {
			summaries++;
		} else if (entry.type === 'custom' && entry.customType === CUSTOM_TYPE_CHAIN) {
			chains++;
			fusedChains += isFusedChain(entry.data) ? 1 : 0;
		}
	}
	return { summaries, chains, fusedChains };
}

/** A chain whose body came from a fusion call (not a deterministic body). */
function isFusedChain(data: unknown): boolean {
	if (typeof data !== 'object' || data === null) {
		return false;
	}
	const chain = data as { rangeSummaryText?: unknown; bodySource?: unknown };
	return typeof chain.rangeSummaryText === 'string' && chain.bodySource !== 'deterministic';
}

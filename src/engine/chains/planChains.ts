/**
 * What compressing each selected chain takes, decided as the user's release decides it
 * (pi-condense's `compressEligible`) from the state as it will read after the batch phase. Pure.
 *
 * - A chain is compressed whether or not its range resolves (one user message at its start
 *   timestamp, one assistant at its final one, in that order): the release does not check, and
 *   rendering then leaves an unresolved one raw with an `unresolved-range` diagnostic.
 * - Lookup keys: the chain's distinct result occurrence keys from 2.6.0 (its ids when it has
 *   none), its middle tool-call ids before. The per-batch summaries filed under them are the
 *   chain's body (`covered`); two or more are fused when `fuseRangeSummary` is on.
 * - A chain no summary covers is skipped (`no-summary`) up to 2.8.0. From 2.9.0 it is compressed
 *   deterministically: `indexed` = the records under its lookup keys, `fresh` = the results inside
 *   its resolved span (none when it does not resolve) that are not indexed under their occurrence
 *   key (aliases do not count), not protected and with a numeric timestamp, as records with turn
 *   index -1. With neither, the chain
 *   is skipped, silently when every middle call is protected, else with a `backfill-empty`
 *   diagnostic.
 */
import { numericTimestamp, occurrenceKey } from '../condense/occurrence';
import { rangeIndexes, timestampSlotsSteps } from '../condense/phases/chainRanges';
import { contentText } from '../condense/occurrence';
import { coveringSummaryTexts, summaryCoverageSteps } from '../condense/state/chainBodies';
import type { CondenseState } from '../condense/state/condenseState';
import type { ToolCallRecord } from '../condense/types';
import type { ReleaseRules } from '../release/releases';
import type { ContextMessage, ToolCall } from '../session/types';
import type { DetectedChain } from './detectChains';
import { PACE, type Steps } from '../steps';

export interface ChainJob {
	readonly chain: DetectedChain;
	/** The keys the release looks the chain's summaries and refs up with, in order. */
	readonly lookupKeys: readonly string[];
	/** 2.6.0+: the chain's distinct result occurrence keys, when it has any. */
	readonly droppedOccurrenceKeys: readonly string[] | undefined;
	/** Distinct covering summary texts, in branch order (empty: a deterministic chain). */
	readonly summaries: readonly string[];
	/** Deterministic chains: records already indexed under the lookup keys, in key order. */
	readonly indexed: readonly ToolCallRecord[];
	/** Deterministic chains: records to backfill (inline; the compressor may spill them). */
	readonly fresh: readonly ToolCallRecord[];
	/** Result characters of the dropped calls' records (for `/pruner compact`'s reclaimed estimate). */
	readonly indexedChars: number;
}

export type ChainSkip = { readonly chain: DetectedChain; readonly reason: 'no-summary' | 'backfill-empty' };

export interface ChainPlan {
	readonly jobs: readonly ChainJob[];
	readonly skipped: readonly ChainSkip[];
}

export function isDeterministic(job: ChainJob): boolean {
	return job.summaries.length === 0;
}

/** The jobs that compress the selected chains, in steps (see `src/engine/steps.ts`). */
export function* planChainJobsSteps(selected: readonly DetectedChain[], messages: readonly ContextMessage[], state: CondenseState, rules: ReleaseRules): Steps<ChainPlan> {
	const jobs: ChainJob[] = [];
	const skipped: ChainSkip[] = [];
	const coverage = yield* summaryCoverageSteps(state.summaries);
	const slots = yield* timestampSlotsSteps(messages);
	// Paced by the messages the chains span: a chain's backfill reads its whole range.
	let handled = 0;
	for (const chain of selected) {
		handled += Math.max(1, chain.endIndex - chain.startIndex);
		if (handled >= PACE) {
			handled = 0;
			yield;
		}
		const occurrenceKeys = rules.occurrenceKeys ? [...new Set(chain.middleKeys)] : [];
		const lookupKeys = occurrenceKeys.length > 0 ? occurrenceKeys : chain.middleToolCallIds;
		const summaries = coveringSummaryTexts(lookupKeys, state.summaries, coverage);
		const base = { chain, lookupKeys, droppedOccurrenceKeys: occurrenceKeys.length > 0 ? occurrenceKeys : undefined, indexedChars: indexedChars(lookupKeys, state) };
		if (summaries.length > 0) {
			jobs.push({ ...base, summaries, indexed: [], fresh: [] });
			continue;
		}
		if (!rules.deterministicChains) {
			skipped.push({ chain, reason: 'no-summary' });
			continue;
		}
		const indexed = lookupKeys.flatMap((key) => {
			const occurrence = state.records.get(key);
			return occurrence ? [occurrence.record] : [];
		});
		const span = rangeIndexes(slots, chain.startUserTimestamp, chain.finalAssistantTimestamp);
		const fresh = span ? freshRecords(chain, span, messages, state) : [];
		if (indexed.length === 0 && fresh.length === 0) {
			const allProtected = chain.middleToolCallIds.length > 0 && chain.middleToolCallIds.every((id) => chain.protectedToolCallIds.includes(id));
			skipped.push({ chain, reason: allProtected ? 'no-summary' : 'backfill-empty' });
			continue;
		}
		jobs.push({ ...base, summaries: [], indexed, fresh });
	}
	return { jobs, skipped };
}

function indexedChars(keys: readonly string[], state: CondenseState): number {
	let chars = 0;
	for (const key of keys) {
		const record = state.records.get(key) ?? state.aliases.get(key)?.original;
		chars += record?.record.resultText.length ?? 0;
	}
	return chars;
}

/** The results strictly inside the chain's resolved span that 2.9.0 backfills. */
function freshRecords(chain: DetectedChain, span: { readonly startIndex: number; readonly endIndex: number }, messages: readonly ContextMessage[], state: CondenseState): ToolCallRecord[] {
	const protectedIds = new Set(chain.protectedToolCallIds);
	const calls = new Map<string, ToolCall>();
	const records: ToolCallRecord[] = [];
	for (let i = span.startIndex + 1; i < span.endIndex; i++) {
		const message = messages[i] as ContextMessage;
		if (message.role === 'assistant') {
			for (const block of message.content) {
				if (block.type === 'toolCall') {
					calls.set(block.id, block);
				}
			}
			continue;
		}
		if (message.role !== 'toolResult') {
			continue;
		}
		const call = calls.get(message.toolCallId);
		const timestamp = numericTimestamp(message.timestamp);
		if (!call || protectedIds.has(message.toolCallId) || timestamp === undefined || state.records.has(occurrenceKey(message.toolCallId, timestamp))) {
			continue;
		}
		records.push({
			toolCallId: message.toolCallId,
			toolName: call.name,
			args: call.arguments,
			resultText: contentText(message.content),
			isError: message.isError === true,
			turnIndex: -1,
			timestamp,
			resultTimestamp: timestamp,
		});
	}
	return records;
}

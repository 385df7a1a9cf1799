/**
 * What compressing each selected chain takes, decided from the state as it will read after the
 * batch phase (pi-condense's `compressEligible`, with 2.9.0's deterministic body). Pure.
 *
 * - A chain must resolve to one range (one user message at its start timestamp, one assistant at
 *   its final one, in that order), else rendering would leave it raw and it is skipped.
 * - `toolRefs`: the `tN` of each middle call that has one (an alias shows its original's), in
 *   middle order. The per-batch summaries covering the middle (by occurrence, or bare id for refs
 *   no record backs) are the chain's body; two or more distinct ones are fused by one summarizer
 *   call when `fuseRangeSummary` is on.
 * - Chains no summary covers get a deterministic body from their index records (2.9.0), and every
 *   middle result that is neither indexed, aliased nor protected is backfilled into the index
 *   (turn index -1, timestamp = its result's), so what the chain drops stays recoverable. Covered
 *   chains are written as pi-condense 2.0.0 writes them, with no backfill.
 */
import { pendingCall } from '../../condense/pending/capturePending';
import type { PendingCall } from '../../condense/pending/pendingTypes';
import { rangeIndexes, timestampSlots } from '../../condense/phases/chainRanges';
import { coveringSummaryTexts, summaryCoverage, type SummaryCoverage } from '../../condense/state/chainBodies';
import type { CondenseState } from '../../condense/state/condenseState';
import { coverageOf } from '../../condense/state/indexLookups';
import type { ToolCallRecord } from '../../condense/types';
import type { AgentMessage, ToolCall } from '../../session/types';
import type { BodyCall } from './deterministicBody';
import type { DetectedChain } from './detectChains';

/** A middle call that is neither indexed nor aliased nor protected. */
export type BackfillCall = PendingCall;

/** A middle call for a deterministic body: already indexed, or about to be backfilled. */
export type MiddleCall =
	| { readonly kind: 'indexed'; readonly call: BodyCall }
	| { readonly kind: 'backfill'; readonly call: BackfillCall };

export interface ChainJob {
	readonly chain: DetectedChain;
	readonly toolRefs: readonly string[];
	/** Distinct covering summary texts, in branch order. */
	readonly summaries: readonly string[];
	/** Indexed and unindexed middle calls, in order (protected ones excluded). */
	readonly middle: readonly MiddleCall[];
	readonly backfill: readonly BackfillCall[];
	/** Result characters of the dropped calls' records (for `/pruner compact`'s reclaimed estimate). */
	readonly indexedChars: number;
}

export type ChainSkip = { readonly chain: DetectedChain; readonly reason: 'no-summary' | 'unresolved' };

export function planChainJobs(
	selected: readonly DetectedChain[],
	messages: readonly AgentMessage[],
	state: CondenseState,
): { readonly jobs: readonly ChainJob[]; readonly skipped: readonly ChainSkip[] } {
	const jobs: ChainJob[] = [];
	const skipped: ChainSkip[] = [];
	const coverage = summaryCoverage(state.summaries);
	const slots = timestampSlots(messages);
	for (const chain of selected) {
		// Rendering resolves a chain's range the same way: one that does not resolve would stay raw.
		if (!rangeIndexes(slots, chain.startUserTimestamp, chain.finalAssistantTimestamp)) {
			skipped.push({ chain, reason: 'unresolved' });
			continue;
		}
		const job = planOne(chain, messages, state, coverage);
		if (job.summaries.length === 0 && job.middle.length === 0) {
			skipped.push({ chain, reason: 'no-summary' });
		} else {
			jobs.push(job);
		}
	}
	return { jobs, skipped };
}

function planOne(chain: DetectedChain, messages: readonly AgentMessage[], state: CondenseState, coverage: SummaryCoverage): ChainJob {
	const protectedIds = new Set(chain.protectedToolCallIds);
	const calls = new Map<string, ToolCall>();
	const refById = new Map<string, string>();
	const middle: MiddleCall[] = [];
	const backfill: BackfillCall[] = [];
	let indexedChars = 0;
	for (let i = chain.startIndex + 1; i < chain.endIndex; i++) {
		const message = messages[i] as AgentMessage;
		if (message.role === 'assistant') {
			for (const block of message.content) {
				if (block.type === 'toolCall') {
					calls.set(block.id, block);
				}
			}
			continue;
		}
		if (message.role !== 'toolResult' || !calls.has(message.toolCallId)) {
			continue;
		}
		const coverage = coverageOf(state, message);
		const record = coverage?.kind === 'record' ? coverage.occurrence : coverage?.alias.original;
		const ref = record?.shortRef;
		if (ref !== undefined && !refById.has(message.toolCallId)) {
			refById.set(message.toolCallId, ref);
		}
		if (record) {
			indexedChars += record.record.resultText.length;
			if (coverage?.kind === 'record') {
				middle.push({ kind: 'indexed', call: { record: record.record, ref } });
			}
		} else if (!coverage && !protectedIds.has(message.toolCallId)) {
			const call = pendingCall(calls.get(message.toolCallId) as ToolCall, message);
			backfill.push(call);
			middle.push({ kind: 'backfill', call });
		}
	}
	// Summaries are filed under occurrence keys (2.6.0+ refs) or bare ids (older refs, and every ref
	// up to 2.5.0); looking up both keeps the flush finding what it found before releases were followed.
	const summaries = coveringSummaryTexts([...chain.middleKeys, ...chain.middleToolCallIds], state.summaries, coverage);
	return {
		chain,
		toolRefs: chain.middleToolCallIds.flatMap((id) => {
			const ref = refById.get(id);
			return ref === undefined ? [] : [ref];
		}),
		summaries,
		middle,
		backfill: summaries.length === 0 ? backfill : [],
		indexedChars,
	};
}

/** A backfilled call as an index record (2.9.0: turn index -1, timestamp = its result's). */
export function backfillRecord(call: BackfillCall): ToolCallRecord {
	return {
		toolCallId: call.toolCallId,
		toolName: call.toolName,
		args: call.args,
		resultText: call.resultText,
		isError: call.isError,
		turnIndex: -1,
		timestamp: call.resultTimestamp,
	};
}


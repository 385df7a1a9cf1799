/**
 * Phase 3 of the context transform from pi-condense 2.6.0: each compressed chain is cut out at its
 * own position (see `chainRanges.ts`). Pure; returns the input array itself when nothing changes.
 *
 * For each accepted range: every assistant, tool result and per-batch summary strictly inside it is
 * dropped (user messages, including a synthetic already present, third-party custom messages and
 * bash executions stay); protected results inside it (by the entry's `protectedToolCallIds`) are
 * moved into the synthetic body; the closing assistant loses its thinking when configured; and the
 * synthetic `<compressed-chain>` message goes right after the start message unless one with the
 * same block id is already there. Per-batch summaries anywhere whose refs name a dropped result
 * are dropped too (by occurrence key, or by bare id for a ref without a timestamp). A chain whose
 * recorded ids differ from the ids in its range reports `range-id-mismatch` (nothing changes).
 *
 * @example
 * runSteps(chainPrunePositionalSteps(messages, state, { stripFinalAssistantThinking: true }, undefined))
 */
import type { ChainCompressionConfig } from '../../config/types';
import type { AgentMessage } from '../../session/types';
import { bareToolCallId, contentText, isSummaryMessage, numericTimestamp, occurrenceKey } from '../occurrence';
import type { CondenseState } from '../state/condenseState';
import { CUSTOM_TYPE_SUMMARY } from '../types';
import { acceptedRangesSteps, type ChainRange, type DiagnosticSink } from './chainRanges';
import { summaryDetailRefs } from './summaryDetailRefs';
import { blockBodyLookup, existingBlockIdsSteps, syntheticChainMessage, type ProtectedOutput } from './syntheticChain';
import { withoutThinking } from './thinkingBlocks';
import { PACE, paced, type Steps } from '../../steps';

interface DropPlan {
	/** 1 at each index strictly inside an accepted range. */
	readonly drop: Uint8Array;
	readonly stripAt: Set<number>;
	readonly insertAfter: Map<number, { readonly blockId: string; readonly message: AgentMessage }>;
	readonly droppedKeys: Set<string>;
	readonly droppedIds: Set<string>;
}

export function* chainPrunePositionalSteps(
	messages: readonly AgentMessage[],
	state: CondenseState,
	options: Pick<ChainCompressionConfig, 'stripFinalAssistantThinking'>,
	report?: DiagnosticSink,
): Steps<readonly AgentMessage[]> {
	if (state.chains.length === 0) {
		return messages;
	}
	const ranges = yield* acceptedRangesSteps(state.chains, messages, report);
	if (ranges.length === 0) {
		return messages;
	}
	yield;
	const plan = yield* planDrops(ranges, messages, state, options, report);
	const present = yield* existingBlockIdsSteps(messages);
	const out: AgentMessage[] = [];
	let changed = false;
	for (let i = 0; i < messages.length; i++) {
		if (paced(i)) {
			yield;
		}
		const message = messages[i] as AgentMessage;
		const summary = isSummaryMessage(message, CUSTOM_TYPE_SUMMARY);
		const droppable = summary || message.role === 'assistant' || message.role === 'toolResult';
		if ((plan.drop[i] === 1 && droppable) || (summary && coversDropped(message.details, plan))) {
			changed = true;
			continue;
		}
		const stripped = plan.stripAt.has(i) && message.role === 'assistant' ? withoutThinking(message) : message;
		changed ||= stripped !== message;
		out.push(stripped);
		const synthetic = plan.insertAfter.get(i);
		if (synthetic && !present.has(synthetic.blockId)) {
			out.push(synthetic.message);
			changed = true;
		}
	}
	return changed ? out : messages;
}

function* planDrops(
	ranges: readonly ChainRange[],
	messages: readonly AgentMessage[],
	state: CondenseState,
	options: Pick<ChainCompressionConfig, 'stripFinalAssistantThinking'>,
	report: DiagnosticSink | undefined,
): Steps<DropPlan> {
	const plan: DropPlan = { drop: new Uint8Array(messages.length), stripAt: new Set(), insertAfter: new Map(), droppedKeys: new Set(), droppedIds: new Set() };
	let handled = 0;
	for (const { chain, startIndex, endIndex } of ranges) {
		// Paced by the messages a range covers: one chain may span thousands.
		handled += endIndex - startIndex;
		if (handled >= PACE) {
			handled = 0;
			yield;
		}
		const protectedIds = chain.entry.protectedToolCallIds ? new Set(chain.entry.protectedToolCallIds) : undefined;
		// The ids in range only feed the mismatch diagnostic: not collected when nobody listens.
		const inRange = report ? new Set<string>() : undefined;
		const relocated: ProtectedOutput[] = [];
		for (let i = startIndex + 1; i < endIndex; i++) {
			const message = messages[i] as AgentMessage;
			plan.drop[i] = 1;
			if (message.role === 'toolResult') {
				inRange?.add(message.toolCallId);
				plan.droppedIds.add(message.toolCallId);
				plan.droppedKeys.add(occurrenceKey(message.toolCallId, numericTimestamp(message.timestamp)));
				if (protectedIds?.has(message.toolCallId)) {
					relocated.push({ tool: message.toolName, text: contentText(message.content) });
				}
			} else if (message.role === 'assistant') {
				for (const block of message.content) {
					if (block.type === 'toolCall') {
						inRange?.add(block.id);
						plan.droppedIds.add(block.id);
					}
				}
			}
		}
		if (report && inRange) {
			reportMismatch(chain.entry.blockId, chain.entry.droppedToolCallIds, inRange, chain.line, report);
		}
		if (options.stripFinalAssistantThinking) {
			plan.stripAt.add(endIndex);
		}
		const message = syntheticChainMessage(chain.entry, chain.bodyText, blockBodyLookup(state), relocated);
		plan.insertAfter.set(startIndex, { blockId: chain.entry.blockId, message });
	}
	return plan;
}

function reportMismatch(blockId: string, recordedIds: readonly string[], inRange: ReadonlySet<string>, line: number | undefined, report: DiagnosticSink): void {
	const recorded = new Set(recordedIds.map(bareToolCallId));
	if (recorded.size !== inRange.size || [...recorded].some((id) => !inRange.has(id))) {
		const detail = `blockId=${blockId} recorded=${recorded.size} actual=${inRange.size}`;
		report(line === undefined ? { kind: 'range-id-mismatch', dedupKey: blockId, detail } : { kind: 'range-id-mismatch', dedupKey: blockId, detail, line });
	}
}

/** A ref with a timestamp matches a dropped occurrence; a legacy ref matches a dropped bare id. */
function coversDropped(details: unknown, plan: DropPlan): boolean {
	return summaryDetailRefs(details).some((ref) => (ref.resultTimestamp !== undefined
		? plan.droppedKeys.has(occurrenceKey(ref.toolCallId, ref.resultTimestamp))
		: plan.droppedIds.has(bareToolCallId(ref.toolCallId))));
}

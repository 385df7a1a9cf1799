/**
 * Phase 3 of the context transform: compressed chains are cut out of the context. Pure; returns
 * the input array itself when nothing changes, which also makes a second pass a no-op.
 *
 * For each chain that resolves to a range (see `chainRanges.ts`): the assistant messages inside it
 * are dropped together with their tool results (as pairs: a result whose call lies outside the
 * range stays), per-batch summaries inside it are dropped, summaries elsewhere that cover a dropped
 * call are hidden, the closing assistant loses its thinking when configured, and the synthetic
 * `<compressed-chain>` message is inserted right after the start message unless one with the same
 * block id is already there. Protected results in the range are relocated into the synthetic body.
 * Other messages inside a range (user, bash, third-party custom) are kept.
 *
 * @example
 * chainRangePrune(messages, state, { stripFinalAssistantThinking: true })
 */
import type { AgentMessage, CustomMessage } from '../../session/types';
import { readSummaryDetails } from '../entryReaders';
import { contentText, isSummaryMessage, resultOccurrenceKey } from '../occurrence';
import type { CondenseState } from '../state/condenseState';
import { CUSTOM_TYPE_SUMMARY } from '../types';
import type { BlockBodyLookup } from './blockRefs';
import { acceptedRanges, type ChainRange } from './chainRanges';
import { ignoreDiagnostics, type RenderReporter } from './renderDiagnostics';
import { syntheticBlockId, syntheticChainMessage, type ProtectedOutput } from './syntheticChain';
import { withoutThinking } from './thinkingBlocks';

export interface ChainPruneOptions {
	readonly stripFinalAssistantThinking: boolean;
}

interface DropPlan {
	readonly drop: Set<number>;
	readonly stripAt: Set<number>;
	readonly insertAfter: Map<number, AgentMessage & { readonly role: 'user' }>;
	/** Occurrence keys of dropped results. */
	readonly droppedKeys: Set<string>;
	/** Bare ids of dropped calls and results (for summary refs that no record backs). */
	readonly droppedIds: Set<string>;
}

export function chainRangePrune(
	messages: readonly AgentMessage[],
	state: CondenseState,
	options: ChainPruneOptions,
	report: RenderReporter = ignoreDiagnostics,
): readonly AgentMessage[] {
	if (state.chains.length === 0) {
		return messages;
	}
	const ranges = acceptedRanges(state.chains, messages, report);
	if (ranges.length === 0) {
		return messages;
	}
	const plan = planDrops(ranges, messages, blockBodyLookup(state), options);
	const present = new Set<string>();
	for (const message of messages) {
		const blockId = syntheticBlockId(message);
		if (blockId !== undefined) {
			present.add(blockId);
		}
	}
	const out: AgentMessage[] = [];
	let changed = false;
	messages.forEach((message, i) => {
		if (plan.drop.has(i) || (isSummaryMessage(message, CUSTOM_TYPE_SUMMARY) && coversDropped(message, state, plan))) {
			changed = true;
			return;
		}
		const stripped = plan.stripAt.has(i) && message.role === 'assistant' ? withoutThinking(message) : message;
		changed ||= stripped !== message;
		out.push(stripped);
		const synthetic = plan.insertAfter.get(i);
		const blockId = synthetic && syntheticBlockId(synthetic);
		if (synthetic && blockId !== undefined && !present.has(blockId)) {
			out.push(synthetic);
			changed = true;
		}
	});
	return changed ? out : messages;
}

function planDrops(ranges: readonly ChainRange[], messages: readonly AgentMessage[], lookup: BlockBodyLookup, options: ChainPruneOptions): DropPlan {
	const plan: DropPlan = { drop: new Set(), stripAt: new Set(), insertAfter: new Map(), droppedKeys: new Set(), droppedIds: new Set() };
	for (const { chain, startIndex, endIndex } of ranges) {
		const protectedIds = new Set(chain.entry.protectedToolCallIds ?? []);
		const callsInRange = new Set<string>();
		const relocated: ProtectedOutput[] = [];
		for (let i = startIndex + 1; i < endIndex; i++) {
			const message = messages[i] as AgentMessage;
			if (message.role === 'assistant') {
				plan.drop.add(i);
				for (const block of message.content) {
					if (block.type === 'toolCall') {
						callsInRange.add(block.id);
						plan.droppedIds.add(block.id);
					}
				}
			} else if (message.role === 'toolResult' && callsInRange.has(message.toolCallId)) {
				plan.drop.add(i);
				plan.droppedKeys.add(resultOccurrenceKey(message));
				if (protectedIds.has(message.toolCallId)) {
					relocated.push({ tool: message.toolName, text: contentText(message.content) });
				}
			} else if (isSummaryMessage(message, CUSTOM_TYPE_SUMMARY)) {
				plan.drop.add(i);
			}
		}
		if (options.stripFinalAssistantThinking) {
			plan.stripAt.add(endIndex);
		}
		plan.insertAfter.set(startIndex, syntheticChainMessage(chain.entry, chain.bodyText, lookup, relocated));
	}
	return plan;
}

/** A summary covers a dropped call when one of its refs names a dropped occurrence. */
function coversDropped(message: CustomMessage, state: CondenseState, plan: DropPlan): boolean {
	const details = readSummaryDetails(message.details);
	if (!details.ok) {
		return false;
	}
	return details.value.toolCallRefs.some((ref) => {
		const occurrence = state.refs.get(ref.shortId);
		if (occurrence?.resultTimestamp !== undefined && occurrence.record.toolCallId === ref.toolCallId) {
			return plan.droppedKeys.has(occurrence.key);
		}
		return plan.droppedIds.has(ref.toolCallId);
	});
}

/** Body of block `bN` for `{bN}` placeholders: the first chain with that id, if its body is non-empty. */
function blockBodyLookup(state: CondenseState): BlockBodyLookup {
	return (blockId) => state.chains.find((chain) => chain.entry.blockId === blockId)?.bodyText || undefined;
}


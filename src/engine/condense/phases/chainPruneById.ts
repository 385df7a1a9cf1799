/**
 * Phase 3 of the context transform in pi-condense 2.0.0–2.5.0: compressed chains are cut out by
 * tool-call id, anywhere in the context. Pure; returns the input array itself when nothing changes.
 *
 * The rule, defects included: the union of every chain's `droppedToolCallIds` is dropped wherever
 * it appears (a tool result with such an id, an assistant message with any call of such an id, a
 * per-batch summary with a ref to such an id); every assistant whose timestamp is some chain's final
 * timestamp loses its thinking when configured; each chain's synthetic message goes after every
 * user message with its start timestamp (unless one with its block id is already in the list); and
 * protected outputs are collected array-wide by id. A provider that reuses ids (`bash_0` in every
 * response) therefore loses live turns that reuse a compressed chain's ids: fixed in 2.6.0, and
 * reported here as a warning.
 *
 * @example
 * runSteps(chainPruneByIdSteps(messages, state, { stripFinalAssistantThinking: true }, undefined))
 */
import type { ChainCompressionConfig } from '../../config/types';
import type { ReleaseVersion } from '../../release/releases';
import type { AgentMessage, AssistantMessage } from '../../session/types';
import { contentText, isSummaryMessage } from '../occurrence';
import type { CondenseState } from '../state/condenseState';
import { CUSTOM_TYPE_SUMMARY } from '../types';
import { liveTurnWarning } from './liveTurnWarning';
import type { DefectWarning } from './renderReport';
import { summaryDetailRefs } from './summaryDetailRefs';
import { blockBodyLookup, existingBlockIdsSteps, syntheticChainMessage, type ProtectedOutput } from './syntheticChain';
import { withoutThinking } from './thinkingBlocks';
import { Pacer, paced, type Steps } from '../../steps';

export interface ChainWarningSink {
	readonly release: ReleaseVersion;
	readonly report: (warning: DefectWarning) => void;
}

/** The chain phase by block id, in steps: a long session has thousands of chains. */
export function* chainPruneByIdSteps(
	messages: readonly AgentMessage[],
	state: CondenseState,
	options: Pick<ChainCompressionConfig, 'stripFinalAssistantThinking'>,
	warn?: ChainWarningSink,
): Steps<readonly AgentMessage[]> {
	if (state.chains.length === 0) {
		return messages;
	}
	const dropped = new Set<string>();
	const stripAt = new Set<number>();
	const protectedBlock = new Map<string, string>();
	for (let i = 0; i < state.chains.length; i++) {
		if (paced(i)) {
			yield;
		}
		const { entry } = state.chains[i] as CondenseState['chains'][number];
		entry.droppedToolCallIds.forEach((id) => dropped.add(id));
		entry.protectedToolCallIds?.forEach((id) => protectedBlock.set(id, entry.blockId));
		if (entry.finalAssistantTimestamp !== null && options.stripFinalAssistantThinking) {
			stripAt.add(entry.finalAssistantTimestamp);
		}
	}
	const synthetics = yield* syntheticsByStartSteps(messages, state, protectedBlock);
	const present = yield* existingBlockIdsSteps(messages);
	const out: AgentMessage[] = [];
	const droppedAt: number[] = [];
	let changed = false;
	for (let i = 0; i < messages.length; i++) {
		if (paced(i)) {
			yield;
		}
		const message = messages[i] as AgentMessage;
		if (isDropped(message, dropped)) {
			droppedAt.push(i);
			changed = true;
			continue;
		}
		if (message.role === 'assistant' && stripAt.has(message.timestamp)) {
			const stripped = withoutThinking(message);
			changed ||= stripped !== message;
			out.push(stripped);
			continue;
		}
		out.push(message);
		const synthetic = message.role === 'user' ? synthetics.get(message.timestamp) : undefined;
		if (synthetic && !present.has(synthetic.blockId)) {
			out.push(synthetic.message);
			changed = true;
		}
	}
	if (warn && droppedAt.length > 0) {
		const warning = liveTurnWarning(messages, droppedAt, state, warn.release);
		if (warning) {
			warn.report(warning);
		}
	}
	return changed ? out : messages;
}

function isDropped(message: AgentMessage, dropped: ReadonlySet<string>): boolean {
	if (message.role === 'toolResult') {
		return dropped.has(message.toolCallId);
	}
	if (message.role === 'assistant') {
		return callsAny(message, dropped);
	}
	return isSummaryMessage(message, CUSTOM_TYPE_SUMMARY) && summaryDetailRefs(message.details).some((ref) => dropped.has(ref.toolCallId));
}

function callsAny(message: AssistantMessage, ids: ReadonlySet<string>): boolean {
	return message.content.some((block) => block.type === 'toolCall' && ids.has(block.id));
}

/** Each chain's synthetic message by start timestamp, with the protected outputs of its ids from anywhere in the list. */
function* syntheticsByStartSteps(
	messages: readonly AgentMessage[],
	state: CondenseState,
	protectedBlock: ReadonlyMap<string, string>,
): Steps<Map<number, { readonly blockId: string; readonly message: AgentMessage }>> {
	const relocated = new Map<string, ProtectedOutput[]>();
	if (protectedBlock.size > 0) {
		for (let i = 0; i < messages.length; i++) {
			if (paced(i)) {
				yield;
			}
			const message = messages[i] as AgentMessage;
			const blockId = message.role === 'toolResult' ? protectedBlock.get(message.toolCallId) : undefined;
			if (message.role === 'toolResult' && blockId !== undefined) {
				const list = relocated.get(blockId) ?? [];
				list.push({ tool: message.toolName, text: contentText(message.content) });
				relocated.set(blockId, list);
			}
		}
	}
	const lookup = blockBodyLookup(state);
	const byStart = new Map<number, { readonly blockId: string; readonly message: AgentMessage }>();
	const pacer = new Pacer();
	for (const { entry, bodyText } of state.chains) {
		if (pacer.due(bodyText.length)) {
			yield;
		}
		byStart.set(entry.startUserTimestamp, { blockId: entry.blockId, message: syntheticChainMessage(entry, bodyText, lookup, relocated.get(entry.blockId) ?? []) });
	}
	return byStart;
}

/**
 * pi-condense's context metrics (2.7.0+): what pruning cannot reclaim yet. Pure.
 *
 * - thinking tokens in the open segment (after the last text-only assistant reply);
 * - the share of the branch taken by its largest chain, or by the open segment if that is larger;
 * - the tokens of tool results past the prune frontier that are neither summarized nor protected.
 *
 * They back the footer suffix, the `--- context ---` block of `/pruner status` and the `metrics` of
 * every `context-prune-flush-metrics` entry. Releases before 2.7.0 have none.
 *
 * @example
 * const metrics = runSteps(contextMetricsForSteps(branch, state, config, releaseRules('2.9.1')));
 * metrics?.frontierGapTokens // 411
 */
import { detectChainsSteps } from '../chains/detectChains';
import { numericTimestamp, occurrenceKey } from '../condense/occurrence';
import { protectionCheck, type ProtectionCheck, type ProtectionConfig } from '../condense/protection/protectionRules';
import { isSummarized } from '../condense/state/indexLookups';
import type { CondenseState } from '../condense/state/condenseState';
import type { PruneFrontier } from '../condense/types';
import type { ReleaseRules } from '../release/releases';
import type { AssistantContent, ContextMessage, SessionEntry, ToolCall } from '../session/types';
import { largestChainSharePctSteps } from './chainShare';
import { metricsMessages, messageChars } from './metricsBranch';
import { Pacer, type Steps } from '../steps';

/** Field names exactly as the release writes them into a flush-metrics entry. */
export interface ContextMetrics {
	readonly openCycleThinkingTokens: number;
	readonly largestChainSharePct: number;
	readonly frontierGapTokens: number;
}

/** What the release records when it has no snapshot at all. */
export const ZERO_CONTEXT_METRICS: ContextMetrics = { openCycleThinkingTokens: 0, largestChainSharePct: 0, frontierGapTokens: 0 };

/**
 * The metrics of `branch` as `rules` computes them, from the state that release rebuilt from the
 * same branch; undefined before 2.7.0. For a flush's snapshot pass the branch as it stood when the
 * flush began (before the entries it wrote, and without the reply that triggered it). In steps.
 */
export function* contextMetricsForSteps(branch: readonly SessionEntry[], state: CondenseState, config: ProtectionConfig, rules: ReleaseRules): Steps<ContextMetrics | undefined> {
	return rules.flushMetrics ? yield* computeContextMetricsSteps(metricsMessages(branch), state, protectionCheck(config)) : undefined;
}

/** The metrics over an already projected message list (`metricsMessages`). */
function* computeContextMetricsSteps(messages: readonly ContextMessage[], state: Pick<CondenseState, 'frontier' | 'records' | 'aliases'>, isProtected: ProtectionCheck): Steps<ContextMetrics> {
	if (messages.length === 0) {
		return ZERO_CONTEXT_METRICS;
	}
	const openStart = openSegmentStart(messages);
	const openCycle = openCycleThinkingTokens(messages, openStart);
	const chains = yield* detectChainsSteps(messages, isProtected);
	return {
		openCycleThinkingTokens: openCycle,
		largestChainSharePct: yield* largestChainSharePctSteps(messages, openStart, chains),
		frontierGapTokens: yield* frontierGapTokens(messages, state, isProtected),
	};
}

/** A reply with no tool call ends a cycle (content that is not an array counts as such a reply). */
export function isTextOnlyAssistant(message: ContextMessage): boolean {
	if (message.role !== 'assistant') {
		return false;
	}
	const content: unknown = message.content;
	return !Array.isArray(content) || !blocksOf(message).some((block) => block.type === 'toolCall');
}

/** An assistant's content blocks; none when the content is not an array (a hand-edited file). */
function blocksOf(message: ContextMessage): readonly AssistantContent[] {
	const content: unknown = message.role === 'assistant' ? message.content : undefined;
	return Array.isArray(content) ? content as readonly AssistantContent[] : [];
}

/** Index just after the last text-only assistant reply (0 when there is none). */
function openSegmentStart(messages: readonly ContextMessage[]): number {
	for (let i = messages.length - 1; i >= 0; i--) {
		if (isTextOnlyAssistant(messages[i] as ContextMessage)) {
			return i + 1;
		}
	}
	return 0;
}

/** Whole thinking blocks (signature included) are measured; characters are summed, then rounded once. */
function openCycleThinkingTokens(messages: readonly ContextMessage[], openStart: number): number {
	let chars = 0;
	for (const message of messages.slice(openStart)) {
		for (const block of blocksOf(message)) {
			if (block.type === 'thinking') {
				chars += messageChars(block);
			}
		}
	}
	return Math.round(chars / 4);
}

/**
 * Tokens of the tool results the next flush still has to deal with. The scan starts after the
 * frontier's assistant (counted from 0 over the branch); the results of that assistant's calls up
 * to the last attempted one are skipped until the next assistant, since a later turn may reuse an
 * id. Each result is rounded to tokens on its own, then summed.
 */
function* frontierGapTokens(messages: readonly ContextMessage[], state: Pick<CondenseState, 'frontier' | 'records' | 'aliases'>, isProtected: ProtectionCheck): Steps<number> {
	const boundary = frontierBoundary(messages, state.frontier);
	let tokens = 0;
	const pacer = new Pacer();
	for (let i = boundary.scanStart; i < messages.length; i++) {
		if (pacer.due(0)) {
			yield;
		}
		const message = messages[i] as ContextMessage;
		if (message.role !== 'toolResult') {
			continue;
		}
		if (i < boundary.turnEnd && boundary.excludedIds.has(message.toolCallId)) {
			continue;
		}
		// The strict test on the occurrence key: a record written before 2.6.0 (bare key) still counts.
		if (isSummarized(state as CondenseState, occurrenceKey(message.toolCallId, numericTimestamp(message.timestamp)))) {
			continue;
		}
		if (isProtected(message.toolName, callArguments(messages, i, message.toolCallId))) {
			continue;
		}
		const chars = messageChars(message);
		tokens += Math.round(chars / 4);
		if (pacer.due(chars)) {
			yield;
		}
	}
	return tokens;
}

interface FrontierBoundary {
	readonly scanStart: number;
	readonly turnEnd: number;
	readonly excludedIds: ReadonlySet<string>;
}

function frontierBoundary(messages: readonly ContextMessage[], frontier: PruneFrontier | undefined): FrontierBoundary {
	const none: FrontierBoundary = { scanStart: 0, turnEnd: messages.length, excludedIds: new Set() };
	if (!frontier) {
		return none;
	}
	let turn = 0;
	for (let i = 0; i < messages.length; i++) {
		const message = messages[i] as ContextMessage;
		if (message.role !== 'assistant') {
			continue;
		}
		if (turn++ !== frontier.lastAttemptedTurnIndex) {
			continue;
		}
		const calls = toolCallsOf(message);
		const k = calls.findIndex((call) => call.id === frontier.lastAttemptedToolCallId);
		if (k === -1) {
			return none;
		}
		let turnEnd = messages.length;
		for (let j = i + 1; j < messages.length; j++) {
			if ((messages[j] as ContextMessage).role === 'assistant') {
				turnEnd = j;
				break;
			}
		}
		return { scanStart: i + 1, turnEnd, excludedIds: new Set(calls.slice(0, k + 1).map((call) => call.id)) };
	}
	return none;
}

/** A tool call as the release reads it: some providers' calls carry `input` instead of `arguments`. */
interface CallShape {
	readonly id: string;
	readonly input?: unknown;
	readonly arguments?: unknown;
}

function toolCallsOf(message: ContextMessage): readonly CallShape[] {
	return blocksOf(message).filter((block): block is ToolCall => block.type === 'toolCall');
}

/** The arguments of the nearest earlier call with this id (`input`, else `arguments`). */
function callArguments(messages: readonly ContextMessage[], resultIndex: number, toolCallId: string): unknown {
	for (let i = resultIndex - 1; i >= 0; i--) {
		const call = toolCallsOf(messages[i] as ContextMessage).find((candidate) => candidate.id === toolCallId);
		if (call) {
			return call.input ?? call.arguments;
		}
	}
	return undefined;
}

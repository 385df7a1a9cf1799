/**
 * Captures the tool calls on the branch that pi-condense has not dealt with yet: not indexed, not a
 * dedup alias, not protected, and past the frontier. This is the capture step of the flush. Pure.
 *
 * Rules (pi-condense's branch rescan): every assistant message counts as a turn; user messages
 * start a new user-turn group; a call without a result yet is skipped; calls are paired with the
 * results that follow their assistant message (per occurrence, so a reused id is not confused).
 * Frontier: batches of turns before the frontier's turn are dropped, and within that turn the
 * calls up to and including the last attempted one.
 *
 * @example
 * capturePendingBatches(branch, state, config).length // turns queued
 */
import type { ContextPruneConfig } from '../../config/types';
import type { AssistantMessage, SessionEntry, ToolCall, ToolResultMessage } from '../../session/types';
import { contentText, resultOccurrenceKey } from '../occurrence';
import { protectionCheck, type ProtectionCheck } from '../protection/protectionRules';
import type { CondenseState } from '../state/condenseState';
import { coverageOf } from '../state/indexLookups';
import type { PruneFrontier } from '../types';
import { groupBatches } from './groupBatches';
import type { PendingBatch, PendingCall } from './pendingTypes';

type CaptureConfig = Pick<ContextPruneConfig, 'batchingMode' | 'protectedTools' | 'protectedPaths'>;

interface AssistantTurn {
	readonly message: AssistantMessage;
	readonly timestamp: number;
	readonly turnIndex: number;
	readonly userTurnGroup: number;
	readonly results: Map<string, ToolResultMessage>;
}

export function capturePendingBatches(branch: readonly SessionEntry[], state: CondenseState, config: CaptureConfig): readonly PendingBatch[] {
	const isProtected = protectionCheck(config);
	const batches: PendingBatch[] = [];
	for (const turn of assistantTurns(branch)) {
		const calls = readyCalls(turn, state, isProtected);
		const kept = calls.length > 0 ? trimToFrontier(calls, turn.turnIndex, state.frontier) : [];
		if (kept.length > 0) {
			batches.push({
				turnIndex: turn.turnIndex,
				timestamp: turn.timestamp,
				assistantText: turn.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n').trim(),
				toolCalls: kept,
				userTurnGroup: turn.userTurnGroup,
				rawChars: kept.reduce((sum, call) => sum + call.resultText.length, 0),
			});
		}
	}
	return groupBatches(batches, config.batchingMode);
}

function assistantTurns(branch: readonly SessionEntry[]): AssistantTurn[] {
	const turns: AssistantTurn[] = [];
	let userTurnGroup = 0;
	for (const entry of branch) {
		if (entry.type !== 'message') {
			continue;
		}
		const message = entry.message;
		if (message.role === 'user') {
			userTurnGroup++;
		} else if (message.role === 'assistant') {
			const parsed = Date.parse(entry.timestamp);
			const timestamp = Number.isNaN(parsed) ? message.timestamp : parsed;
			turns.push({ message, timestamp, turnIndex: turns.length, userTurnGroup, results: new Map() });
		} else if (message.role === 'toolResult') {
			const turn = turns[turns.length - 1];
			const called = turn?.message.content.some((b) => b.type === 'toolCall' && b.id === message.toolCallId);
			if (turn && called && !turn.results.has(message.toolCallId)) {
				turn.results.set(message.toolCallId, message);
			}
		}
	}
	return turns;
}

function readyCalls(turn: AssistantTurn, state: CondenseState, isProtected: ProtectionCheck): PendingCall[] {
	const calls: PendingCall[] = [];
	for (const block of turn.message.content) {
		if (block.type !== 'toolCall' || block.id === '') {
			continue;
		}
		const result = turn.results.get(block.id);
		if (result && !coverageOf(state, result) && !isProtected(block.name, block.arguments)) {
			calls.push(pendingCall(block, result));
		}
	}
	return calls;
}

/** A call paired with its result, as a pending (or backfilled) call. */
export function pendingCall(block: ToolCall, result: ToolResultMessage): PendingCall {
	return {
		toolCallId: block.id,
		toolName: block.name,
		args: block.arguments,
		resultText: contentText(result.content),
		isError: result.isError,
		resultTimestamp: result.timestamp,
		key: resultOccurrenceKey(result),
	};
}

function trimToFrontier(calls: PendingCall[], turnIndex: number, frontier: PruneFrontier | undefined): PendingCall[] {
	if (!frontier || turnIndex > frontier.lastAttemptedTurnIndex) {
		return calls;
	}
	if (turnIndex < frontier.lastAttemptedTurnIndex) {
		return [];
	}
	const last = calls.findIndex((call) => call.toolCallId === frontier.lastAttemptedToolCallId);
	return last < 0 ? calls : calls.slice(last + 1);
}

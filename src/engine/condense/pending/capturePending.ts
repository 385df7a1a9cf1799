/**
 * Captures the tool calls on the branch that pi-condense has not dealt with yet: not indexed, not a
 * dedup alias, not protected, and past the frontier. This is the capture step of the flush. Pure.
 *
 * Rules (pi-condense's branch rescan): every assistant message counts as a turn; user messages
 * start a new user-turn group; a call without a result yet is skipped. Pairing follows the
 * release: up to 2.5.0 one branch-wide map of results by id, the last result of an id winning (so
 * a reused id pairs every call with its latest result); from 2.6.0 only the results between the
 * call's assistant and the next assistant, the first one per id winning. "Not summarized" is the
 * strict test under the release's key (bare id, or `id@resultTimestamp`), so records written
 * before 2.6.0 never count as summarized for a 2.6.0+ rescan. Frontier: batches of turns before
 * the frontier's turn are dropped, and within that turn the calls up to and including the last
 * attempted one.
 *
 * @example
 * capturePendingBatches(branch, state, config).length // turns queued
 */
import type { ContextPruneConfig } from '../../config/types';
import type { AssistantMessage, SessionEntry, ToolCall, ToolResultMessage } from '../../session/types';
import { contentText, resultOccurrenceKey } from '../occurrence';
import { protectionCheck, type ProtectionCheck } from '../protection/protectionRules';
import type { CondenseState, StateKeying } from '../state/condenseState';
import { coverageOf } from '../state/indexLookups';
import type { PruneFrontier } from '../types';
import { groupBatches } from './groupBatches';
import type { PendingBatch, PendingCall } from './pendingTypes';
import { paced, runSteps, type Steps } from '../../steps';

type CaptureConfig = Pick<ContextPruneConfig, 'batchingMode' | 'protectedTools' | 'protectedPaths'>;

interface AssistantTurn {
	readonly message: AssistantMessage;
	readonly timestamp: number;
	readonly turnIndex: number;
	readonly userTurnGroup: number;
	/**
	 * Its results: the branch-wide map (up to 2.5.0), or the results between it and the next
	 * assistant in order (the first one per id wins). An array: a map per turn cost 10 MB of
	 * garbage on a 100 MB session, and a turn has few results.
	 */
	readonly results: ReadonlyMap<string, ToolResultMessage> | ToolResultMessage[];
}

export function capturePendingBatches(branch: readonly SessionEntry[], state: CondenseState, config: CaptureConfig): readonly PendingBatch[] {
	return runSteps(capturePendingBatchesSteps(branch, state, config));
}

/** The same, yielding between pieces of work (see `src/engine/steps.ts`). */
export function* capturePendingBatchesSteps(branch: readonly SessionEntry[], state: CondenseState, config: CaptureConfig): Steps<readonly PendingBatch[]> {
	const isProtected = protectionCheck(config);
	const batches: PendingBatch[] = [];
	const turns = yield* assistantTurns(branch, state.keying === 'bare');
	for (let t = 0; t < turns.length; t++) {
		if (paced(t)) {
			yield;
		}
		const turn = turns[t] as AssistantTurn;
		if (state.frontier && turn.turnIndex < state.frontier.lastAttemptedTurnIndex) {
			continue; // Dealt with: the frontier drops the whole turn.
		}
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

function* assistantTurns(branch: readonly SessionEntry[], branchWideResults: boolean): Steps<AssistantTurn[]> {
	const turns: AssistantTurn[] = [];
	const latestById = new Map<string, ToolResultMessage>();
	let userTurnGroup = 0;
	for (let i = 0; i < branch.length; i++) {
		if (paced(i)) {
			yield;
		}
		const entry = branch[i] as SessionEntry;
		if (entry.type !== 'message') {
			continue;
		}
		const message = entry.message;
		if (message.role === 'user') {
			userTurnGroup++;
		} else if (message.role === 'assistant') {
			const parsed = Date.parse(entry.timestamp);
			const timestamp = Number.isNaN(parsed) ? message.timestamp : parsed;
			turns.push({ message, timestamp, turnIndex: turns.length, userTurnGroup, results: branchWideResults ? latestById : [] });
		} else if (message.role === 'toolResult' && message.toolCallId !== '') {
			if (branchWideResults) {
				latestById.set(message.toolCallId, message);
				continue;
			}
			const results = turns[turns.length - 1]?.results;
			if (Array.isArray(results)) {
				results.push(message);
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
		const result = resultFor(turn, block.id);
		if (result && !coverageOf(state, result) && !isProtected(block.name, block.arguments)) {
			calls.push(pendingCall(block, result, state.keying));
		}
	}
	return calls;
}

function resultFor(turn: AssistantTurn, toolCallId: string): ToolResultMessage | undefined {
	const results = turn.results;
	return Array.isArray(results) ? results.find((result) => result.toolCallId === toolCallId) : results.get(toolCallId);
}

/** A call paired with its result, as a pending (or backfilled) call, keyed as the release keys it. */
export function pendingCall(block: ToolCall, result: ToolResultMessage, keying: StateKeying): PendingCall {
	return {
		toolCallId: block.id,
		toolName: block.name,
		args: block.arguments,
		resultText: contentText(result.content),
		isError: result.isError,
		resultTimestamp: result.timestamp,
		key: keying === 'occurrence' ? resultOccurrenceKey(result) : block.id,
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

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
 * runSteps(capturePendingBatchesSteps(branch, state, config)).length // turns queued
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
import { paced, type Steps } from '../../steps';

type CaptureConfig = Pick<ContextPruneConfig, 'batchingMode' | 'protectedTools' | 'protectedPaths'>;

/** An assistant message and where it stands; its results are looked up when its turn is complete. */
interface AssistantTurn {
	readonly message: AssistantMessage;
	readonly timestamp: number;
	readonly turnIndex: number;
	readonly userTurnGroup: number;
}

/** The results a turn's calls pair with: a branch-wide map by id (up to 2.5.0), or the turn's own, in order. */
type TurnResults = ReadonlyMap<string, ToolResultMessage> | readonly ToolResultMessage[];

/**
 * The batches the next flush would summarize, in steps. One pass over the branch
 * (two up to 2.5.0, whose pairing needs every result first): each assistant turn is captured as
 * soon as the next assistant message ends it, so no object per turn outlives its turn (a list of
 * every turn with its results was 5 MB kept through the capture of a 100 MB session).
 */
export function* capturePendingBatchesSteps(branch: readonly SessionEntry[], state: CondenseState, config: CaptureConfig): Steps<readonly PendingBatch[]> {
	const isProtected = protectionCheck(config);
	const batches: PendingBatch[] = [];
	const branchWide = state.keying === 'bare' ? yield* latestResultsById(branch) : undefined;
	const turnResults: ToolResultMessage[] = [];
	let turn: AssistantTurn | undefined;
	let turnCount = 0;
	let userTurnGroup = 0;
	const capture = (): void => {
		if (turn) {
			const batch = batchOf(turn, branchWide ?? turnResults, state, isProtected);
			if (batch) {
				batches.push(batch);
			}
		}
	};
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
			capture();
			const parsed = Date.parse(entry.timestamp);
			turn = { message, timestamp: Number.isNaN(parsed) ? message.timestamp : parsed, turnIndex: turnCount++, userTurnGroup };
			turnResults.length = 0;
		} else if (message.role === 'toolResult' && message.toolCallId !== '' && turn && !branchWide) {
			turnResults.push(message);
		}
	}
	capture();
	return groupBatches(batches, config.batchingMode);
}

/** Up to 2.5.0: every result on the branch by id, the last one of an id winning. */
function* latestResultsById(branch: readonly SessionEntry[]): Steps<ReadonlyMap<string, ToolResultMessage>> {
	const latestById = new Map<string, ToolResultMessage>();
	for (let i = 0; i < branch.length; i++) {
		if (paced(i)) {
			yield;
		}
		const entry = branch[i] as SessionEntry;
		if (entry.type === 'message' && entry.message.role === 'toolResult' && entry.message.toolCallId !== '') {
			latestById.set(entry.message.toolCallId, entry.message);
		}
	}
	return latestById;
}

/** The turn's pending batch, or undefined when the frontier or the state leaves it nothing. */
function batchOf(turn: AssistantTurn, results: TurnResults, state: CondenseState, isProtected: ProtectionCheck): PendingBatch | undefined {
	if (state.frontier && turn.turnIndex < state.frontier.lastAttemptedTurnIndex) {
		return undefined; // Dealt with: the frontier drops the whole turn.
	}
	const calls = readyCalls(turn.message, results, state, isProtected);
	const kept = calls.length > 0 ? trimToFrontier(calls, turn.turnIndex, state.frontier) : [];
	if (kept.length === 0) {
		return undefined;
	}
	return {
		turnIndex: turn.turnIndex,
		timestamp: turn.timestamp,
		assistantText: turn.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n').trim(),
		toolCalls: kept,
		userTurnGroup: turn.userTurnGroup,
		rawChars: kept.reduce((sum, call) => sum + call.resultText.length, 0),
	};
}

function readyCalls(message: AssistantMessage, results: TurnResults, state: CondenseState, isProtected: ProtectionCheck): PendingCall[] {
	const calls: PendingCall[] = [];
	for (const block of message.content) {
		if (block.type !== 'toolCall' || block.id === '') {
			continue;
		}
		const result = resultFor(results, block.id);
		if (result && !coverageOf(state, result) && !isProtected(block.name, block.arguments)) {
			calls.push(pendingCall(block, result, state.keying));
		}
	}
	return calls;
}

function resultFor(results: TurnResults, toolCallId: string): ToolResultMessage | undefined {
	return isList(results) ? results.find((result) => result.toolCallId === toolCallId) : results.get(toolCallId);
}

function isList(results: TurnResults): results is readonly ToolResultMessage[] {
	return Array.isArray(results);
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

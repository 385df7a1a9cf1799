/**
 * Pi's context of the branch the costs engine walks, kept as the branch grows: its messages, the
 * entry each came from, and where things are in it (the first tool result of each id, the user
 * message of each timestamp, …) so that a prune's measuring window (`pruneWindow.ts`) is found
 * without scanning the context again. Built from a branch at once (`fromPathSteps`, after a
 * compaction or a branch switch) and then appended to, as Pi's context grows while nothing changes
 * its earlier messages. Pure (local state only).
 */
import { syntheticBlockId } from '../condense/phases/syntheticChain';
import { summaryDetailRefs } from '../condense/phases/summaryDetailRefs';
import { readSummaryDetails } from '../condense/entryReaders';
import { RECOVERY_TOOL_NAME } from '../condense/phases/recoveryGrace';
import { isSummaryMessage, numericTimestamp, occurrenceKey } from '../condense/occurrence';
import { CUSTOM_TYPE_SUMMARY } from '../condense/types';
import { jsonLength } from '../condense/measure/jsonLength';
import { pathContextSteps } from '../session/context';
import { editedEntryMessages } from '../session/projection';
import type { ContextMessage, SessionEntry } from '../session/types';
import { paced, type Steps } from '../steps';

/** Messages with one timestamp: how many, the first and the last position. */
export interface TimestampSlot {
	count: number;
	first: number;
	last: number;
}

export class ContextTrack {
	readonly messages: ContextMessage[] = [];
	/** The entry each message came from. */
	readonly sources: SessionEntry[] = [];
	/** Positions of the user messages, in order. */
	readonly users: number[] = [];
	/** Positions of the tool results of the recovery tool (`context_tree_query`). */
	readonly recoveries: number[] = [];
	/** Position and block id of every synthetic chain message already in the context. */
	readonly blocks: { readonly position: number; readonly blockId: string }[] = [];
	readonly userSlots = new Map<unknown, TimestampSlot>();
	readonly assistantSlots = new Map<unknown, TimestampSlot>();
	/** The slots more than one message carries (the user's or the assistant's timestamp repeated). */
	readonly duplicates: TimestampSlot[] = [];
	/** First tool result by occurrence key (`id@timestamp`), and by bare id. */
	readonly firstResultByKey = new Map<string, number>();
	readonly firstResultById = new Map<string, number>();
	/** Every tool result of a bare id reused by the provider after its first (most ids have one result). */
	readonly laterResultsById = new Map<string, number[]>();
	/** First assistant message calling each bare id. */
	readonly firstCallById = new Map<string, number>();
	/** First errored tool result of each bare id. */
	readonly firstErrorById = new Map<string, number>();
	/** First per-batch summary naming each key (`id@timestamp`, or the bare id of a ref without one). */
	readonly firstSummaryRef = new Map<string, number>();
	/** The first message of each `custom_message` entry (a summary's entry id → its message). */
	readonly positionOfEntry = new Map<string, number>();
	/** Each message's `JSON.stringify` length, by message (the renders keep the messages they do not change). */
	readonly sizeOf = new Map<ContextMessage, number>();

	/** The context of `path` (root → leaf) as Pi builds it, its compactions and edits applied. */
	static *fromPathSteps(path: readonly SessionEntry[]): Steps<ContextTrack> {
		const context = yield* pathContextSteps(path);
		const sources = yield* context.sources.entriesSteps();
		const track = new ContextTrack();
		for (let i = 0; i < context.messages.length; i++) {
			if (paced(i)) {
				yield;
			}
			track.push(context.messages[i] as ContextMessage, sources[i] as SessionEntry);
		}
		return track;
	}

	/** Every tool result of a bare id. */
	resultsOf(toolCallId: string): readonly number[] {
		const first = this.firstResultById.get(toolCallId);
		return first === undefined ? [] : [first, ...(this.laterResultsById.get(toolCallId) ?? [])];
	}

	/** The messages an entry appended to the branch adds (none for an entry that is not a message). */
	append(entry: SessionEntry): void {
		for (const message of editedEntryMessages(entry, undefined)) {
			this.push(message, entry);
		}
	}

	private push(message: ContextMessage, source: SessionEntry): void {
		const position = this.messages.length;
		this.messages.push(message);
		this.sources.push(source);
		this.sizeOf.set(message, jsonLength(message));
		switch (message.role) {
			case 'user': {
				this.users.push(position);
				slot(this.userSlots, message.timestamp, position, this.duplicates);
				const blockId = syntheticBlockId(message);
				if (blockId !== undefined) {
					this.blocks.push({ position, blockId });
				}
				break;
			}
			case 'assistant':
				slot(this.assistantSlots, message.timestamp, position, this.duplicates);
				for (const block of message.content) {
					if (block.type === 'toolCall') {
						firstOf(this.firstCallById, block.id, position);
					}
				}
				break;
			case 'toolResult':
				if (this.firstResultById.has(message.toolCallId)) {
					const later = this.laterResultsById.get(message.toolCallId);
					if (later === undefined) {
						this.laterResultsById.set(message.toolCallId, [position]);
					} else {
						later.push(position);
					}
				}
				firstOf(this.firstResultById, message.toolCallId, position);
				firstOf(this.firstResultByKey, occurrenceKey(message.toolCallId, numericTimestamp(message.timestamp)), position);
				if (message.isError === true) {
					firstOf(this.firstErrorById, message.toolCallId, position);
				}
				if (message.toolName === RECOVERY_TOOL_NAME) {
					this.recoveries.push(position);
				}
				break;
			default:
				if (message.role === 'custom') {
					firstOf(this.positionOfEntry, source.id, position);
				}
				if (isSummaryMessage(message, CUSTOM_TYPE_SUMMARY)) {
					for (const ref of summaryRefs(message.details)) {
						firstOf(this.firstSummaryRef, occurrenceKey(ref.toolCallId, ref.resultTimestamp), position);
						firstOf(this.firstSummaryRef, ref.toolCallId, position);
					}
				}
		}
	}
}

/** The refs of a per-batch summary, as the chain phase reads them and as the state reads them (the oldest shape included). */
export function summaryRefs(details: unknown): readonly { readonly toolCallId: string; readonly resultTimestamp: number | undefined }[] {
	const read = readSummaryDetails(details);
	const stateRefs = read.ok ? read.value.toolCallRefs.map((ref) => ({ toolCallId: ref.toolCallId, resultTimestamp: ref.resultTimestamp })) : [];
	return [...summaryDetailRefs(details), ...stateRefs];
}

function firstOf<K>(map: Map<K, number>, key: K, position: number): void {
	if (!map.has(key)) {
		map.set(key, position);
	}
}

function slot(slots: Map<unknown, TimestampSlot>, timestamp: unknown, position: number, duplicates: TimestampSlot[]): void {
	const known = slots.get(timestamp);
	if (known === undefined) {
		slots.set(timestamp, { count: 1, first: position, last: position });
	} else {
		known.count++;
		known.last = position;
		if (known.count === 2) {
			duplicates.push(known);
		}
	}
}

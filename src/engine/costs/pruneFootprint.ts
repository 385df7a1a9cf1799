/**
 * A prune's footprint: the first message its entries can change in the context, where the window
 * that measures it starts before `widenedSteps` (pruneWindow.ts) moves that start back. Its own
 * summaries; the tool results it files, aliases or names (by occurrence key, by bare id for a legacy
 * record), and the calls of an errored one (phase 2 purges by bare id); its chains' start messages
 * and, positionally, the summaries naming what they drop; an earlier chain's synthetic message whose
 * body its summaries fill; a dedup alias's stub naming its `tN`. Pure.
 */
import { readChainEntry, readDedupAlias, readIndexEntry, readSummaryDetails, readToolCallRecord } from '../condense/entryReaders';
import { numericTimestamp, occurrenceKey } from '../condense/occurrence';
import { CUSTOM_TYPE_CHAIN, CUSTOM_TYPE_DEDUP_ALIAS, CUSTOM_TYPE_INDEX, CUSTOM_TYPE_SUMMARY, type ChainCompressionEntry } from '../condense/types';
import type { SessionEntry } from '../session/types';
import type { WindowFacts } from './pruneWindow';
import { Pacer, paced, type Steps } from '../steps';

/** The first message `entries` (one or more prunes' entries) can change, or undefined when they change none. */
export function* footprintSteps(facts: WindowFacts, entries: readonly SessionEntry[]): Steps<number | undefined> {
	const { track, rules } = facts;
	let first = Number.POSITIVE_INFINITY;
	const at = (position: number | undefined): void => {
		if (position !== undefined && position < first) {
			first = position;
		}
	};
	const result = (toolCallId: string, resultTimestamp: number | undefined): void => {
		const keyed = rules.occurrenceKeys && resultTimestamp !== undefined;
		at(keyed ? track.firstResultByKey.get(occurrenceKey(toolCallId, resultTimestamp)) : track.firstResultById.get(toolCallId));
		if (keyed && facts.before.records.has(toolCallId)) {
			at(track.firstResultById.get(toolCallId)); // a second key for the id: its legacy record stops stubbing by bare id
		}
		if (track.firstErrorById.has(toolCallId)) {
			at(track.firstCallById.get(toolCallId)); // a stubbed error is no longer one: its calls' purge may change
		}
	};
	/** Keys the prunes' summaries name (what their texts are filed under, and the keys whose `tN` they set). */
	const named = new Set<string>();
	const keyOf = (toolCallId: string, resultTimestamp: number | undefined): string => (rules.occurrenceKeys ? occurrenceKey(toolCallId, resultTimestamp) : toolCallId);
	const pacer = new Pacer();
	for (const entry of entries) {
		if (pacer.due(1)) {
			yield;
		}
		at(track.positionOfEntry.get(entry.id));
		if (entry.type === 'custom_message' && entry.customType === CUSTOM_TYPE_SUMMARY) {
			const details = readSummaryDetails(entry.details);
			for (const ref of details.ok ? details.value.toolCallRefs : []) {
				result(ref.toolCallId, ref.resultTimestamp);
				named.add(keyOf(ref.toolCallId, ref.resultTimestamp));
			}
		} else if (entry.type === 'custom') {
			switch (entry.customType) {
				case CUSTOM_TYPE_INDEX: {
					const read = readIndexEntry(entry.data);
					for (const item of read.ok ? read.value.toolCalls : []) {
						const record = readToolCallRecord(item);
						if (record.ok) {
							result(record.value.toolCallId, record.value.resultTimestamp);
						}
					}
					for (const ref of read.ok ? read.value.refs : []) {
						result(ref.toolCallId, ref.resultTimestamp);
						named.add(keyOf(ref.toolCallId, ref.resultTimestamp));
					}
					break;
				}
				case CUSTOM_TYPE_DEDUP_ALIAS: {
					const read = readDedupAlias(entry.data);
					if (read.ok) {
						result(read.value.newToolCallId, read.value.newResultTimestamp);
					}
					break;
				}
				case CUSTOM_TYPE_CHAIN: {
					const read = readChainEntry(entry.data);
					if (read.ok) {
						chainFootprint(facts, read.value, at);
					}
					break;
				}
				default:
					break;
			}
		}
	}
	yield* namedElsewhereSteps(facts, named, at);
	return Number.isFinite(first) ? first : undefined;
}

/**
 * What new summaries change beyond the results they name: an earlier chain's synthetic message, whose
 * body is the text of the summaries filed under its keys (and the chains quoting that body as
 * `{bN}`), and a dedup alias's stub, which names its original's `tN`.
 */
function* namedElsewhereSteps(facts: WindowFacts, named: ReadonlySet<string>, at: (position: number | undefined) => void): Steps<void> {
	if (named.size === 0) {
		return;
	}
	const { track, before, spans } = facts;
	const changed = new Set<string>();
	for (const key of named) {
		for (const chain of spans.chainsByKey(key)) {
			if (chain.rangeSummaryText === undefined) {
				changed.add(chain.blockId);
				at(track.userSlots.get(chain.startUserTimestamp)?.first);
			}
		}
	}
	if (changed.size > 0) {
		for (let i = 0; i < before.chains.length; i++) {
			if (paced(i)) {
				yield;
			}
			const { entry, bodyText } = before.chains[i] as (typeof before.chains)[number];
			if (bodyText.includes('{b') && [...bodyText.matchAll(/\{(b\d+)\}/g)].some((match) => changed.has(match[1] as string))) {
				at(track.userSlots.get(entry.startUserTimestamp)?.first);
			}
		}
	}
	let count = 0;
	for (const alias of before.aliases.values()) {
		if (paced(count++)) {
			yield;
		}
		if (named.has(alias.originalKey)) {
			at(alias.resultTimestamp === undefined ? track.firstResultById.get(alias.toolCallId) : track.firstResultByKey.get(alias.key));
		}
	}
}

function chainFootprint(facts: WindowFacts, chain: ChainCompressionEntry, at: (position: number | undefined) => void): void {
	const { track } = facts;
	const start = track.userSlots.get(chain.startUserTimestamp);
	at(start?.first);
	track.blocks.filter((block) => block.blockId === chain.blockId).forEach((block) => at(block.position));
	if (!facts.rules.positionalChains) {
		// 2.0.0–2.5.0: by id, anywhere: every call, result and summary of a dropped id, the final assistant's thinking.
		at(track.assistantSlots.get(chain.finalAssistantTimestamp)?.first);
		for (const id of chain.droppedToolCallIds) {
			at(track.firstCallById.get(id));
			at(track.firstResultById.get(id));
			at(track.firstSummaryRef.get(id));
		}
		return;
	}
	const end = track.assistantSlots.get(chain.finalAssistantTimestamp);
	if (start === undefined || end === undefined) {
		return;
	}
	// The summaries naming a result it drops go too, wherever they are.
	for (let position = start.first + 1; position < end.last; position++) {
		const message = track.messages[position];
		if (message?.role === 'toolResult') {
			at(track.firstSummaryRef.get(occurrenceKey(message.toolCallId, numericTimestamp(message.timestamp))));
			at(track.firstSummaryRef.get(message.toolCallId));
		}
	}
}

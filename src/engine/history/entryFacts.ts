/**
 * What the history index takes from one parsed entry: its model usage (as Pi 1.x's session totals
 * count it: assistant replies, a tool result's nested usage, compactions and branch summaries, and
 * `usage` entries), pi-condense's events, and the text search looks in. Pure; reads hostile JSON
 * defensively and never mutates it.
 */
import { isoTime } from '../../base/isoTime';
import { isPlainObject } from '../../base/plainObject';
import type { CondenseEvent, SearchDoc, UsageRecord, UsageSource } from './historyRecords';
import { textOf, type RawLine } from './rawLine';
import { clip, messageSearchText, summarySearchText, type DocText } from './searchText';

/** pi-condense's entries all have a `customType` starting so. */
export const CONDENSE_TYPE_PREFIX = 'context-prune-';

/** Longest string kept among an event's facts. */
const FACT_STRING_MAX = 200;

export interface EntryFacts {
	readonly usage: UsageRecord | undefined;
	readonly event: CondenseEvent | undefined;
	readonly doc: SearchDoc | undefined;
}

/** Where the entry is: its line number and its line (for the byte offsets and the reading of its strings). */
export interface EntryPlace {
	readonly lineNumber: number;
	readonly line: RawLine;
}

export function entryFacts(entry: Record<string, unknown>, place: EntryPlace): EntryFacts {
	const entryId = typeof entry.id === 'string' ? entry.id : undefined;
	const time = entryTime(entry.timestamp);
	const text = (value: string): string => textOf(value, place.line.encoding);
	switch (entry.type) {
		case 'message': {
			const message = entry.message;
			if (!isPlainObject(message)) {
				return NONE;
			}
			const at = typeof message.timestamp === 'number' && Number.isFinite(message.timestamp) ? message.timestamp : time;
			const role = message.role;
			const usage = role === 'assistant' || (role === 'toolResult' && message.usage !== undefined)
				? usageRecord(role, message, { entryId, time: at, entryTime: time, line: place.lineNumber, kind: undefined })
				: undefined;
			return { usage, event: undefined, doc: docOf(messageSearchText(message, place.line.bytes, text), entryId, at, place) };
		}
		case 'compaction':
		case 'branch_summary': {
			const usage = entry.usage === undefined ? undefined : usageRecord(entry.type, entry, { entryId, time, entryTime: time, line: place.lineNumber, kind: undefined });
			const reset: CondenseEvent = { entryId, entryType: entry.type, customType: '', time, line: place.lineNumber, facts: '{}' };
			return { usage, event: reset, doc: docOf(summarySearchText(entry.summary, text), entryId, time, place) };
		}
		case 'usage':
			return { usage: usageRecord('usage', entry, { entryId, time, entryTime: time, line: place.lineNumber, kind: typeof entry.kind === 'string' ? text(entry.kind) : undefined }), event: undefined, doc: undefined };
		case 'custom_message': {
			const event = condenseEvent(entry, 'custom_message', entry.details, { entryId, time, line: place.lineNumber }, text);
			return { usage: undefined, event, doc: docOf(messageSearchText({ role: 'custom', content: entry.content }, place.line.bytes, text), entryId, time, place) };
		}
		case 'custom':
			return { usage: undefined, event: condenseEvent(entry, 'custom', entry.data, { entryId, time, line: place.lineNumber }, text), doc: undefined };
		default:
			return NONE;
	}
}

const NONE: EntryFacts = { usage: undefined, event: undefined, doc: undefined };

interface RecordPlace {
	readonly entryId: string | undefined;
	readonly time: number | undefined;
	/** The entry's own time (`time` is an assistant message's own, when it has one). */
	readonly entryTime?: number | undefined;
	readonly line: number;
	readonly kind: string | undefined;
}

/** The usage of `holder` (an assistant or tool-result message, a compaction, a branch summary or a `usage` entry). */
function usageRecord(source: UsageSource, holder: Record<string, unknown>, place: RecordPlace): UsageRecord {
	const usage = isPlainObject(holder.usage) ? holder.usage : {};
	const cost = isPlainObject(usage.cost) ? usage.cost : {};
	return {
		entryId: place.entryId,
		source,
		kind: place.kind,
		provider: typeof holder.provider === 'string' ? holder.provider : undefined,
		model: typeof holder.model === 'string' ? holder.model : undefined,
		time: place.time,
		entryTime: place.entryTime,
		input: count(usage.input),
		output: count(usage.output),
		cacheRead: count(usage.cacheRead),
		cacheWrite: count(usage.cacheWrite),
		totalTokens: count(usage.totalTokens),
		cost: count(cost.total),
		costInput: count(cost.input),
		costOutput: count(cost.output),
		costCacheRead: count(cost.cacheRead),
		costCacheWrite: count(cost.cacheWrite),
		line: place.line,
	};
}

function condenseEvent(
	entry: Record<string, unknown>,
	entryType: CondenseEvent['entryType'],
	payload: unknown,
	place: Omit<RecordPlace, 'kind'>,
	text: (value: string) => string,
): CondenseEvent | undefined {
	const customType = entry.customType;
	if (typeof customType !== 'string' || !customType.startsWith(CONDENSE_TYPE_PREFIX)) {
		return undefined;
	}
	return { entryId: place.entryId, entryType, customType, time: place.time, line: place.line, facts: JSON.stringify(smallFacts(payload, text)) };
}

/** The scalar fields of an event's payload (long strings cut) and the length of each of its lists. */
function smallFacts(payload: unknown, text: (value: string) => string): Record<string, string | number | boolean | null> {
	const facts: Record<string, string | number | boolean | null> = {};
	if (!isPlainObject(payload)) {
		return facts;
	}
	for (const [key, value] of Object.entries(payload)) {
		if (typeof value === 'string') {
			facts[key] = clip(value, text, FACT_STRING_MAX);
		} else if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean' || value === null) {
			facts[key] = value;
		} else if (Array.isArray(value)) {
			facts[`${key}Count`] = value.length;
		}
	}
	return facts;
}

function docOf(found: DocText | undefined, entryId: string | undefined, time: number | undefined, place: EntryPlace): SearchDoc | undefined {
	return found === undefined ? undefined : { entryId, role: found.role, time, line: place.lineNumber, offset: place.line.offset, bytes: place.line.bytes, text: found.text };
}

/** A figure as written, or 0 for anything that is not a finite number (a hand-edited file). */
function count(value: unknown): number {
	return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** Epoch ms of an entry's ISO timestamp; undefined when it does not read. */
export function entryTime(timestamp: unknown): number | undefined {
	if (typeof timestamp !== 'string') {
		return undefined;
	}
	const time = isoTime(timestamp);
	return Number.isNaN(time) ? undefined : time;
}

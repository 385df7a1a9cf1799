/**
 * What the history index takes from one parsed entry: its model usage (as Pi 1.x's session totals
 * count it: assistant replies, a tool result's nested usage, compactions and branch summaries, and
 * `usage` entries), pi-condense's events, and the text search looks in. Pure; reads hostile JSON
 * defensively and never mutates it.
 */
import { timestampMs } from '../../base/isoTime';
import { isPlainObject } from '../../base/plainObject';
import type { CondenseEvent, SearchDoc, UsageRecord, UsageSource } from './historyRecords';
import { lineReading, parseLine, toUtf8Line, type LineReading, type RawLine } from './rawLine';
import { clip, messageSearchText, summarySearchText, type DocText, type TextReader } from './searchText';

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
	const strings = lineReading(place.line);
	const facts = factsOf(entry, place, strings);
	if (!strings.needsUtf8) {
		return facts;
	}
	// A string or key the one-byte reading cannot give exactly (see `lineReading`): the entry again, from its UTF-8 reading.
	const utf8 = toUtf8Line(place.line);
	const value = parseLine(utf8); // it parses: a line parses in one reading exactly when it does in the other
	return isPlainObject(value) ? factsOf(value, { lineNumber: place.lineNumber, line: utf8 }, lineReading(utf8)) : NONE;
}

function factsOf(entry: Record<string, unknown>, place: EntryPlace, strings: LineReading): EntryFacts {
	const { text } = strings;
	const entryId = typeof entry.id === 'string' ? text(entry.id) : undefined;
	if (entry.type === 'message') {
		return messageFacts(entry, entryId, place, strings);
	}
	const time = timestampMs(stringOf(entry.timestamp, text));
	switch (entry.type) {
		case 'compaction':
		case 'branch_summary': {
			const usage = entry.usage === undefined ? undefined : usageRecord(entry.type, entry, { entryId, time, entryTime: time, line: place.lineNumber, kind: undefined }, text);
			const reset: CondenseEvent = { entryId, entryType: entry.type, customType: '', time, line: place.lineNumber, facts: '{}' };
			return { usage, event: reset, doc: docOf(summarySearchText(entry.summary, text), entryId, time, place) };
		}
		case 'usage':
			return { usage: usageRecord('usage', entry, { entryId, time, entryTime: time, line: place.lineNumber, kind: typeof entry.kind === 'string' ? text(entry.kind) : undefined }, text), event: undefined, doc: undefined };
		case 'custom_message': {
			const event = condenseEvent(entry, 'custom_message', entry.details, { entryId, time, line: place.lineNumber }, strings);
			return { usage: undefined, event, doc: docOf(messageSearchText({ role: 'custom', content: entry.content }, place.line.bytes, strings), entryId, time, place) };
		}
		case 'custom':
			return { usage: undefined, event: condenseEvent(entry, 'custom', entry.data, { entryId, time, line: place.lineNumber }, strings), doc: undefined };
		default:
			return NONE;
	}
}

const NONE: EntryFacts = { usage: undefined, event: undefined, doc: undefined };

/**
 * A message's facts. Its entry's timestamp is read only when something keeps it (a usage record's
 * `entryTime`, or the time of a message without its own): most messages are user messages and tool
 * results with their own time, and a timestamp read is a tenth of a microsecond per entry.
 */
function messageFacts(entry: Record<string, unknown>, entryId: string | undefined, place: EntryPlace, strings: LineReading): EntryFacts {
	const message = entry.message;
	if (!isPlainObject(message)) {
		return NONE;
	}
	const ownTime = typeof message.timestamp === 'number' && Number.isFinite(message.timestamp) ? message.timestamp : undefined;
	const role = message.role;
	const hasUsage = role === 'assistant' || (role === 'toolResult' && message.usage !== undefined);
	const time = hasUsage || ownTime === undefined ? timestampMs(stringOf(entry.timestamp, strings.text)) : undefined;
	const at = ownTime ?? time;
	const usage = hasUsage ? usageRecord(role, message, { entryId, time: at, entryTime: time, line: place.lineNumber, kind: undefined }, strings.text) : undefined;
	return { usage, event: undefined, doc: docOf(messageSearchText(message, place.line.bytes, strings), entryId, at, place) };
}

/** A string value read as the file's UTF-8 text has it; anything else as it is. */
function stringOf(value: unknown, text: TextReader): unknown {
	return typeof value === 'string' ? text(value) : value;
}

interface RecordPlace {
	readonly entryId: string | undefined;
	readonly time: number | undefined;
	/** The entry's own time (`time` is an assistant message's own, when it has one). */
	readonly entryTime?: number | undefined;
	readonly line: number;
	readonly kind: string | undefined;
}

/** The usage of `holder` (an assistant or tool-result message, a compaction, a branch summary or a `usage` entry). */
function usageRecord(source: UsageSource, holder: Record<string, unknown>, place: RecordPlace, text: TextReader): UsageRecord {
	const usage = isPlainObject(holder.usage) ? holder.usage : {};
	const cost = isPlainObject(usage.cost) ? usage.cost : {};
	return {
		entryId: place.entryId,
		source,
		kind: place.kind,
		provider: typeof holder.provider === 'string' ? text(holder.provider) : undefined,
		model: typeof holder.model === 'string' ? text(holder.model) : undefined,
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
	strings: LineReading,
): CondenseEvent | undefined {
	const customType = entry.customType;
	if (typeof customType !== 'string' || !customType.startsWith(CONDENSE_TYPE_PREFIX)) {
		return undefined;
	}
	return { entryId: place.entryId, entryType, customType: strings.text(customType), time: place.time, line: place.line, facts: JSON.stringify(smallFacts(payload, strings)) };
}

/** The scalar fields of an event's payload (long strings cut) and the length of each of its lists. */
function smallFacts(payload: unknown, { text, keys }: LineReading): Record<string, string | number | boolean | null> {
	const facts: Record<string, string | number | boolean | null> = {};
	if (!isPlainObject(payload)) {
		return facts;
	}
	keys(payload);
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

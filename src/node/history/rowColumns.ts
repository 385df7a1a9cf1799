/**
 * What some lines of a file gave, in the shape the index inserts it: per table, one flat list of
 * the values of its rows, column after column (`indexSchema.ts`), with a slot left at 0 for what
 * only the writer knows (the session's row id, a model's id, a doc's id). Made where the lines are
 * read (an extraction worker, or this thread), it crosses between threads as a few arrays instead
 * of thousands of objects, and the writer only fills its slots and binds slices of it.
 */
import type { ExtractedLines } from '../../engine/history';
import type { SqlValue } from './sqlite/sqlDatabase';
import { costOfParts, DOC_ROLES, tokensOfParts, USAGE_SOURCES } from './indexSchema';

/**
 * `usage` columns: sid, line, entry_id, source, kind, model_id, time, entry_time, input, output, cache_read,
 * cache_write, total_tokens, cost, cost_input, cost_output, cost_cache_read, cost_cache_write (total_tokens and cost
 * NULL when they are the sum of their parts).
 */
export const USAGE_COLUMNS = 18;
export const USAGE_SID = 0;
export const USAGE_MODEL_ID = 5;
/** `events` columns: sid, line, entry_id, entry_type, custom_type, time, facts. */
export const EVENT_COLUMNS = 7;
export const EVENT_SID = 0;
/** `docs` columns: doc, role, time, line, offset, bytes (`docs_text` gets the doc and its text). */
export const DOC_COLUMNS = 6;
export const DOC_ID = 0;

export interface RowColumns {
	readonly usage: SqlValue[];
	/** Provider and model of each usage row, two per row (`model_id` is looked up by the writer). */
	readonly usageModels: (string | null)[];
	readonly events: SqlValue[];
	readonly docs: SqlValue[];
	/**
	 * The docs' texts as UTF-8, one after another (`textEnds[i]`: where doc i's text ends), bound
	 * as bytes: encoded where the lines are read, moved to the writer's thread without a copy, and
	 * copied into SQLite as they are (a string is encoded by the writer's thread, and the
	 * WebAssembly engine encodes it one character at a time in JavaScript).
	 */
	readonly texts: Uint8Array;
	readonly textEnds: number[];
}

/** Gathers the rows of what some lines gave, until taken. */
export class RowGatherer {
	private usage: SqlValue[] = [];
	private usageModels: (string | null)[] = [];
	private events: SqlValue[] = [];
	private docs: SqlValue[] = [];
	private docTexts: string[] = [];

	add(extracted: Omit<ExtractedLines, 'summary'>): void {
		for (const u of extracted.usage) {
			this.usage.push(0, u.line, u.entryId ?? null, USAGE_SOURCES.indexOf(u.source), u.kind ?? null, 0, u.time ?? null, u.entryTime ?? null,
				u.input, u.output, u.cacheRead, u.cacheWrite, u.totalTokens === tokensOfParts(u) ? null : u.totalTokens, u.cost === costOfParts(u) ? null : u.cost,
				u.costInput, u.costOutput, u.costCacheRead, u.costCacheWrite);
			this.usageModels.push(u.provider ?? null, u.model ?? null);
		}
		for (const e of extracted.events) {
			this.events.push(0, e.line, e.entryId ?? null, e.entryType, e.customType, e.time ?? null, e.facts);
		}
		for (const d of extracted.docs) {
			this.docs.push(0, DOC_ROLES.indexOf(d.role), d.time ?? null, d.line, d.offset, d.bytes);
			this.docTexts.push(d.text);
		}
	}

	/** The rows gathered since the last take. */
	take(): RowColumns {
		const { bytes, ends } = utf8Texts(this.docTexts);
		const rows: RowColumns = { usage: this.usage, usageModels: this.usageModels, events: this.events, docs: this.docs, texts: bytes, textEnds: ends };
		this.usage = [];
		this.usageModels = [];
		this.events = [];
		this.docs = [];
		this.docTexts = [];
		return rows;
	}
}

const encoder = new TextEncoder();

/**
 * Where texts are encoded before their exact bytes are copied out, kept from one batch to the next
 * (the calling thread's only one; encoding is synchronous): a buffer of 3 bytes per UTF-16 unit per
 * batch, allocated and freed each time, was megabytes the C allocator kept resident (see
 * `ReadBuffers`). Grown as needed; one grown past SCRATCH_KEPT_MAX is not kept.
 */
let scratch = new Uint8Array(0);
const SCRATCH_KEPT_MAX = 4 * 1024 * 1024;

/** The texts as UTF-8 in one buffer of their size (a character takes at most 3 bytes per UTF-16 unit). */
function utf8Texts(texts: readonly string[]): { bytes: Uint8Array; ends: number[] } {
	let units = 0;
	for (const text of texts) {
		units += text.length;
	}
	const buffer = scratch.length >= 3 * units ? scratch : new Uint8Array(3 * units);
	const ends: number[] = [];
	let at = 0;
	for (const text of texts) {
		at += encoder.encodeInto(text, buffer.subarray(at)).written;
		ends.push(at);
	}
	if (buffer.length <= SCRATCH_KEPT_MAX) {
		scratch = buffer;
	}
	return { bytes: buffer.slice(0, at), ends };
}

/** Rows in a table's list. */
export function rowCount(values: readonly SqlValue[], columns: number): number {
	return values.length / columns;
}

export function isEmptyColumns(rows: RowColumns): boolean {
	return rows.usage.length + rows.events.length + rows.docs.length === 0;
}

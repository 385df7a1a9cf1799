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
	private texts = new TextBytes();
	private textEnds: number[] = [];

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
			this.textEnds.push(this.texts.append(d.text));
		}
	}

	/** The rows gathered since the last take. */
	take(): RowColumns {
		const rows: RowColumns = { usage: this.usage, usageModels: this.usageModels, events: this.events, docs: this.docs, texts: this.texts.take(), textEnds: this.textEnds };
		this.usage = [];
		this.usageModels = [];
		this.events = [];
		this.docs = [];
		this.textEnds = [];
		return rows;
	}
}

const encoder = new TextEncoder();

/**
 * Texts as UTF-8, one after another, encoded as they come: a text's string is dropped at once
 * (young) instead of living until the batch is taken (thousands of strings a collection would
 * copy and promote), and the buffer is reused from batch to batch.
 */
class TextBytes {
	private buffer = new Uint8Array(64 * 1024);
	private length = 0;

	/** Appends `text` and returns where its bytes end. */
	append(text: string): number {
		// A UTF-16 unit takes at most 3 bytes of UTF-8 (a surrogate pair's two take 4).
		const room = this.length + 3 * text.length;
		if (room > this.buffer.length) {
			const bigger = new Uint8Array(Math.max(room, 2 * this.buffer.length));
			bigger.set(this.buffer.subarray(0, this.length));
			this.buffer = bigger;
		}
		this.length += encoder.encodeInto(text, this.buffer.subarray(this.length)).written;
		return this.length;
	}

	/** The bytes appended since the last take, in a buffer of their own (it moves to the writer's thread). */
	take(): Uint8Array {
		const bytes = this.buffer.slice(0, this.length);
		this.length = 0;
		return bytes;
	}
}

/** Rows in a table's list. */
export function rowCount(values: readonly SqlValue[], columns: number): number {
	return values.length / columns;
}

export function isEmptyColumns(rows: RowColumns): boolean {
	return rows.usage.length + rows.events.length + rows.docs.length === 0;
}

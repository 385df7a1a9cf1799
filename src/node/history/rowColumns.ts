/**
 * What some lines of a file gave, in the shape the index inserts it: per table, flat lists of the
 * values of its rows, column after column (`indexSchema.ts`), the numbers in a `Float64Array` (NaN
 * for NULL) and the texts in a list, with a slot left for what only the writer knows (the session's
 * row id, a model's id, a doc's id). Made where the lines are read (an extraction worker, or this
 * thread), it crosses between threads as a few arrays instead of thousands of objects (the numbers'
 * buffers moved, not copied: a list of numbers is copied value by value, and each fraction or time
 * in it is an object of its own on the heap), and the writer only fills its slots and binds them.
 */
import type { ExtractedLines } from '../../engine/history';
import { separateSpaceless } from '../../engine/history';
import type { SqlValue } from './sqlite/sqlDatabase';
import { costOfParts, DOC_ROLES, tokensOfParts, USAGE_SOURCES } from './indexSchema';
import { Numbers, TextBytes } from './rowBuffers';

/**
 * `usage`'s numbers, per row: sid, line, source, model_id, time, entry_time, input, output, cache_read, cache_write,
 * total_tokens, cost, cost_input, cost_output, cost_cache_read, cost_cache_write (total_tokens and cost NULL when
 * they are the sum of their parts; `model_id` is the index of its provider and model in `models` until the writer
 * puts their id there, NaN when it has neither); and its texts: entry_id, kind.
 */
export const USAGE_NUMBERS = 16;
export const USAGE_SID = 0;
export const USAGE_MODEL_ID = 3;
export const USAGE_TEXTS = 2;
/** `events` columns: sid, line, entry_id, entry_type, custom_type, time, facts. */
export const EVENT_COLUMNS = 7;
export const EVENT_SID = 0;
/** `docs` columns, all numbers: doc, role, time, line, offset, bytes (`docs_text` gets the doc and its text). */
export const DOC_COLUMNS = 6;
export const DOC_ID = 0;

export interface RowColumns {
	readonly usage: Float64Array;
	readonly usageTexts: (string | null)[];
	/** The usage rows' providers and models, two per pair, each pair once (a session names a few, each request sent them again). */
	readonly models: (string | null)[];
	readonly events: SqlValue[];
	readonly docs: Float64Array;
	/**
	 * The docs' texts as UTF-8, one after another (`textEnds[i]`: where doc i's text ends), bound
	 * as bytes: encoded where the lines are read, moved to the writer's thread without a copy, and
	 * copied into SQLite as they are (a string is encoded by the writer's thread, and the
	 * WebAssembly engine encodes it one character at a time in JavaScript).
	 */
	readonly texts: Uint8Array;
	readonly textEnds: Float64Array;
}

/** A number of a row's list as bound: NaN is NULL. */
export function sqlNumber(value: number): number | null {
	return Number.isNaN(value) ? null : value;
}

/** Gathers the rows of what some lines gave, until taken. */
export class RowGatherer {
	private readonly usage = new Numbers();
	private usageTexts: (string | null)[] = [];
	private models = new ModelPairs();
	private events: SqlValue[] = [];
	private readonly docs = new Numbers();
	private readonly texts = new TextBytes();
	private readonly textEnds = new Numbers();

	add(extracted: Omit<ExtractedLines, 'summary'>): void {
		const { usage, docs } = this;
		for (const u of extracted.usage) {
			usage.push(0);
			usage.push(u.line);
			usage.push(USAGE_SOURCES.indexOf(u.source));
			usage.push(this.models.indexOf(u.provider ?? null, u.model ?? null));
			usage.push(u.time ?? Number.NaN);
			usage.push(u.entryTime ?? Number.NaN);
			usage.push(u.input);
			usage.push(u.output);
			usage.push(u.cacheRead);
			usage.push(u.cacheWrite);
			usage.push(u.totalTokens === tokensOfParts(u) ? Number.NaN : u.totalTokens);
			usage.push(u.cost === costOfParts(u) ? Number.NaN : u.cost);
			usage.push(u.costInput);
			usage.push(u.costOutput);
			usage.push(u.costCacheRead);
			usage.push(u.costCacheWrite);
			this.usageTexts.push(u.entryId ?? null, u.kind ?? null);
		}
		for (const e of extracted.events) {
			this.events.push(0, e.line, e.entryId ?? null, e.entryType, e.customType, e.time ?? null, e.facts);
		}
		for (const d of extracted.docs) {
			docs.push(0);
			docs.push(DOC_ROLES.indexOf(d.role));
			docs.push(d.time ?? Number.NaN);
			docs.push(d.line);
			docs.push(d.offset);
			docs.push(d.bytes);
			// Indexed with each Chinese or Japanese character a word of its own (searchQuery searches them so).
			this.textEnds.push(this.texts.append(separateSpaceless(d.text)));
		}
	}

	/** The rows gathered since the last take. */
	take(): RowColumns {
		const rows: RowColumns = {
			usage: this.usage.take(), usageTexts: this.usageTexts, models: this.models.pairs, events: this.events,
			docs: this.docs.take(), texts: this.texts.take(), textEnds: this.textEnds.take(),
		};
		this.usageTexts = [];
		this.models = new ModelPairs();
		this.events = [];
		return rows;
	}

	/** Gives its buffers back for the next file (`rowBuffers.ts`); it is not used after. */
	release(): void {
		this.usage.release();
		this.docs.release();
		this.textEnds.release();
		this.texts.release();
	}
}

/** The distinct (provider, model) pairs of a batch's usage rows, in `pairs`, two values each. */
class ModelPairs {
	readonly pairs: (string | null)[] = [];
	/** Index of each pair by provider, then model (maps keep null apart from ''). */
	private readonly byProvider = new Map<string | null, Map<string | null, number>>();
	private lastProvider: string | null = null;
	private lastModel: string | null = null;
	private lastIndex = Number.NaN;

	/** Index of the pair (NaN when both are missing: no model). */
	indexOf(provider: string | null, model: string | null): number {
		if (provider === null && model === null) {
			return Number.NaN;
		}
		if (provider === this.lastProvider && model === this.lastModel) {
			return this.lastIndex; // a session's requests mostly go to one model in a row
		}
		let models = this.byProvider.get(provider);
		if (models === undefined) {
			models = new Map();
			this.byProvider.set(provider, models);
		}
		let index = models.get(model);
		if (index === undefined) {
			index = this.pairs.length / 2;
			this.pairs.push(provider, model);
			models.set(model, index);
		}
		this.lastProvider = provider;
		this.lastModel = model;
		this.lastIndex = index;
		return index;
	}
}

/** Rows in a table's list. */
export function rowCount(values: { readonly length: number }, columns: number): number {
	return values.length / columns;
}

export function isEmptyColumns(rows: RowColumns): boolean {
	return rows.usage.length + rows.events.length + rows.docs.length === 0;
}

/** The buffers a batch's rows can be moved in (to another thread), not copied. */
export function movableBuffers(rows: RowColumns): ArrayBuffer[] {
	return [rows.usage.buffer, rows.docs.buffer, rows.texts.buffer, rows.textEnds.buffer] as ArrayBuffer[];
}

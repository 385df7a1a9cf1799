/**
 * Reading and writing the index's rows (`indexSchema.ts`): a session's file identity, header and
 * summary, and what its lines gave (usage records, pi-condense events, search texts). Synchronous:
 * called inside one locked transaction by `IndexDatabase`.
 */
import type { SessionSummary } from '../../engine/session';
import type { SessionHeader } from '../../engine/session';
import { DOCS_PER_SESSION } from './indexSchema';
import { DOC_COLUMNS, DOC_ID, EVENT_COLUMNS, EVENT_SID, rowCount, sqlNumber, USAGE_MODEL_ID, USAGE_NUMBERS, USAGE_SID, USAGE_TEXTS, type RowColumns } from './rowColumns';
import type { SqlDatabase, SqlRow, SqlValue } from './sqlite/sqlDatabase';

/** `usage`'s columns in a row of its insert: its numbers and its entry_id and kind (provider and model make `model_id`). */
const USAGE_COLUMNS = USAGE_NUMBERS + 2;

/** What the index knows of one file. */
export interface StoredSession {
	readonly path: string;
	readonly root: string;
	readonly ino: number;
	/** -1 while the file is read in parts (a build was stopped): then it is continued from `consumed`. */
	readonly size: number;
	readonly mtimeMs: number;
	readonly consumed: number;
	readonly firstLineHash: string | undefined;
	/** Why the file is not listed (no valid header); undefined for a session. */
	readonly unlisted: string | undefined;
	readonly header: SessionHeader | undefined;
	readonly summary: SessionSummary;
}

export interface StoredRow extends StoredSession {
	readonly sid: number;
}

const SESSION_COLUMNS = 'sid, path, root, ino, size, mtime_ms, consumed, first_line_hash, unlisted, id, cwd, started, version, parent_session, s_header, s_header_timestamp, name, first_message, entry_count, message_count, last_activity, invalid_lines, line_count';

export function sessionsOf(db: SqlDatabase, where = '', params: readonly SqlValue[] = []): StoredRow[] {
	return db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions ${where}`).all(params).map(storedRowOf);
}

export function sessionAt(db: SqlDatabase, path: string): StoredRow | undefined {
	const row = db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE path = ?`).get([path]);
	return row && storedRowOf(row);
}

/** Adds or replaces a file's row; returns its `sid`. */
export function upsertSession(db: SqlDatabase, session: StoredSession): number {
	const h = session.header;
	const s = session.summary;
	const row = db.prepare(`INSERT INTO sessions (path, root, ino, size, mtime_ms, consumed, first_line_hash, unlisted, id, cwd, started, version, parent_session,
			s_header, s_header_timestamp, name, first_message, entry_count, message_count, last_activity, invalid_lines, line_count)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (path) DO UPDATE SET root = excluded.root, ino = excluded.ino, size = excluded.size, mtime_ms = excluded.mtime_ms,
			consumed = excluded.consumed, first_line_hash = excluded.first_line_hash, unlisted = excluded.unlisted, id = excluded.id, cwd = excluded.cwd,
			started = excluded.started, version = excluded.version, parent_session = excluded.parent_session, s_header = excluded.s_header,
			s_header_timestamp = excluded.s_header_timestamp, name = excluded.name, first_message = excluded.first_message,
			entry_count = excluded.entry_count, message_count = excluded.message_count, last_activity = excluded.last_activity,
			invalid_lines = excluded.invalid_lines, line_count = excluded.line_count
		RETURNING sid`).get([
		session.path, session.root, session.ino, session.size, session.mtimeMs, session.consumed, session.firstLineHash ?? null, session.unlisted ?? null,
		h?.id ?? null, h?.cwd ?? null, h?.timestamp ?? null, h?.version ?? null, h?.parentSession ?? null,
		s.header, s.headerTimestamp ?? null, s.name ?? null, s.firstUserMessage ?? null, s.entryCount, s.messageCount, s.lastActivity ?? null, s.invalidLineCount, s.lineCount,
	]);
	return Number(row?.['sid']);
}

/** Forgets what a file's lines gave (it is read again from its start, or it is gone). */
export function deleteContent(db: SqlDatabase, sid: number): void {
	const [first, last] = docRange(sid);
	db.prepare('DELETE FROM docs_text WHERE rowid BETWEEN ? AND ?').run([first, last]);
	db.prepare('DELETE FROM docs WHERE doc BETWEEN ? AND ?').run([first, last]);
	db.prepare('DELETE FROM usage WHERE sid = ?').run([sid]);
	db.prepare('DELETE FROM events WHERE sid = ?').run([sid]);
	db.prepare('DELETE FROM costs_accounts WHERE sid = ?').run([sid]);
	db.prepare('DELETE FROM costs_digests WHERE sid = ?').run([sid]);
}

export function deleteSession(db: SqlDatabase, path: string): boolean {
	const row = db.prepare('SELECT sid FROM sessions WHERE path = ?').get([path]);
	if (!row) {
		return false;
	}
	deleteContent(db, Number(row['sid']));
	db.prepare('DELETE FROM sessions WHERE sid = ?').run([Number(row['sid'])]);
	return true;
}

/** Free pages a file keeps for the writes to come before they are given back. */
const FREE_PAGES_KEPT = 256;

/**
 * Gives the file's free pages back to the file system when there are more than FREE_PAGES_KEPT: a
 * build's full-text merges leave about 7% of the file free. Only a file made with `auto_vacuum =
 * INCREMENTAL` (`NEW_FILE_PRAGMAS`) gives them back; on another this does nothing.
 */
export function giveBackFreePages(db: SqlDatabase): void {
	if (Number(db.prepare('PRAGMA freelist_count').get()?.['freelist_count'] ?? 0) > FREE_PAGES_KEPT) {
		db.exec('PRAGMA incremental_vacuum');
	}
}

/** The doc ids of a session, first and last. */
export function docRange(sid: number): [number, number] {
	return [sid * DOCS_PER_SESSION, (sid + 1) * DOCS_PER_SESSION - 1];
}

/** Adds what some lines of a file gave (`rows`: its slots are filled here). */
export function insertExtracted(db: SqlDatabase, sid: number, rows: RowColumns): void {
	const { usage, usageTexts, models, events, docs, texts, textEnds } = rows;
	const modelIds: number[] = [];
	for (let pair = 0; pair < models.length / 2; pair++) {
		const provider = models[2 * pair] ?? null;
		const model = models[2 * pair + 1] ?? null;
		// Looked up first, not left to ON CONFLICT: UNIQUE takes two NULLs for different values, so a missing name made a row per batch.
		const known = db.prepare('SELECT model_id FROM models WHERE provider IS ? AND model IS ?').get([provider, model]) ?? db.prepare('INSERT INTO models (provider, model) VALUES (?, ?) RETURNING model_id').get([provider, model]);
		modelIds.push(Number(known?.['model_id']));
	}
	for (let row = 0; row < rowCount(usage, USAGE_NUMBERS); row++) {
		usage[row * USAGE_NUMBERS + USAGE_SID] = sid;
		const pair = usage[row * USAGE_NUMBERS + USAGE_MODEL_ID] ?? Number.NaN;
		usage[row * USAGE_NUMBERS + USAGE_MODEL_ID] = Number.isNaN(pair) ? Number.NaN : modelIds[pair] ?? Number.NaN;
	}
	insertRows(db, 'INSERT OR REPLACE INTO usage (sid, line, entry_id, source, kind, model_id, time, entry_time, input, output, cache_read, cache_write, total_tokens, cost, cost_input, cost_output, cost_cache_read, cost_cache_write) VALUES', USAGE_COLUMNS, rowCount(usage, USAGE_NUMBERS), (params, at, row) => {
		const n = row * USAGE_NUMBERS;
		const t = row * USAGE_TEXTS;
		params[at] = sqlNumber(usage[n] ?? Number.NaN); // sid
		params[at + 1] = sqlNumber(usage[n + 1] ?? Number.NaN); // line
		params[at + 2] = usageTexts[t] ?? null; // entry_id
		params[at + 3] = sqlNumber(usage[n + 2] ?? Number.NaN); // source
		params[at + 4] = usageTexts[t + 1] ?? null; // kind
		for (let column = 3; column < USAGE_NUMBERS; column++) { // model_id, time, entry_time, input … cost_cache_write
			params[at + 2 + column] = sqlNumber(usage[n + column] ?? Number.NaN);
		}
	});
	for (let row = 0; row < rowCount(events, EVENT_COLUMNS); row++) {
		events[row * EVENT_COLUMNS + EVENT_SID] = sid;
	}
	insertRows(db, 'INSERT OR REPLACE INTO events (sid, line, entry_id, entry_type, custom_type, time, facts) VALUES', EVENT_COLUMNS, rowCount(events, EVENT_COLUMNS), (params, at, row) => {
		for (let column = 0; column < EVENT_COLUMNS; column++) {
			params[at + column] = events[row * EVENT_COLUMNS + column] ?? null;
		}
	});
	if (textEnds.length === 0) {
		return;
	}
	// Ids taken here, not returned per row: the transaction holds the write lock, nobody else inserts.
	const [first, last] = docRange(sid);
	const before = Number(db.prepare('SELECT coalesce(max(doc), ?) AS last FROM docs WHERE doc BETWEEN ? AND ?').get([first - 1, first, last])?.['last']);
	// A session's messages past its range of ids (DOCS_PER_SESSION of them: a file of gigabytes) are
	// not searchable: their ids would be the next session's.
	const kept = Math.min(textEnds.length, last - before);
	if (kept <= 0) {
		return;
	}
	for (let row = 0; row < kept; row++) {
		docs[row * DOC_COLUMNS + DOC_ID] = before + 1 + row;
	}
	insertRows(db, 'INSERT INTO docs (doc, role, time, line, offset, bytes) VALUES', DOC_COLUMNS, kept, (params, at, row) => {
		for (let column = 0; column < DOC_COLUMNS; column++) {
			params[at + column] = sqlNumber(docs[row * DOC_COLUMNS + column] ?? Number.NaN);
		}
	});
	insertTexts(db, before + 1, texts, textEnds.subarray(0, kept));
}

/**
 * The docs' texts, in one statement: the bytes bound once as a blob, each doc's text cut from it
 * by SQLite (where it starts, 1-based, and its length, as a JSON list) and read as text, as SQLite
 * reads bytes cast to text. Bound 32 rows at a time, they were a third more of a build's SQLite
 * time: what node:sqlite spends per statement and per parameter, not the full-text indexing.
 */
function insertTexts(db: SqlDatabase, firstDoc: number, texts: Uint8Array, textEnds: Float64Array): void {
	const spans: string[] = new Array<string>(textEnds.length);
	let start = 0;
	for (let row = 0; row < textEnds.length; row++) {
		const end = textEnds[row] ?? start;
		spans[row] = `[${start + 1},${end - start}]`;
		start = end;
	}
	db.prepare('INSERT INTO docs_text (rowid, text) SELECT ?1 + key, CAST(substr(?2, value ->> 0, value ->> 1) AS TEXT) FROM json_each(?3)')
		.run([firstDoc, texts, `[${spans.join(',')}]`]);
}

/** Rows inserted ROWS_PER_INSERT at a time: one statement per row costs more in calls than in SQLite. */
const ROWS_PER_INSERT = 128;

const statementTexts = new Map<string, string>();

/** `insert` followed by `count` times `row` (made once per shape). */
function statementText(insert: string, row: string, count: number): string {
	const key = `${count}:${insert}${row}`;
	let text = statementTexts.get(key);
	if (text === undefined) {
		text = `${insert} ${Array.from({ length: count }, () => row).join(', ')}`;
		statementTexts.set(key, text);
	}
	return text;
}

/** Inserts `rows` rows of `columns` values each, row `row`'s values put in a statement's parameters from `at` by `write`. */
function insertRows(db: SqlDatabase, insert: string, columns: number, rows: number, write: (params: SqlValue[], at: number, row: number) => void): void {
	const row = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
	let at = 0;
	if (rows >= ROWS_PER_INSERT) {
		const many = db.prepare(statementText(insert, row, ROWS_PER_INSERT));
		for (; at + ROWS_PER_INSERT <= rows; at += ROWS_PER_INSERT) {
			const params = new Array<SqlValue>(ROWS_PER_INSERT * columns);
			for (let i = 0; i < ROWS_PER_INSERT; i++) {
				write(params, i * columns, at + i);
			}
			many.run(params);
		}
	}
	if (at < rows) {
		const one = db.prepare(statementText(insert, row, 1));
		for (; at < rows; at++) {
			const params = new Array<SqlValue>(columns);
			write(params, 0, at);
			one.run(params);
		}
	}
}

function storedRowOf(row: SqlRow): StoredRow {
	const text = (name: string): string | undefined => (typeof row[name] === 'string' ? row[name] : undefined);
	const number = (name: string): number | undefined => (row[name] === null || row[name] === undefined ? undefined : Number(row[name]));
	const id = text('id');
	const header: SessionHeader | undefined = id === undefined ? undefined : {
		type: 'session',
		id,
		cwd: text('cwd') ?? '',
		timestamp: text('started') ?? '',
		...(number('version') === undefined ? {} : { version: number('version') }),
		...(text('parent_session') === undefined ? {} : { parentSession: text('parent_session') }),
	};
	const sHeader = text('s_header');
	return {
		sid: Number(row['sid']),
		path: text('path') ?? '',
		root: text('root') ?? '',
		ino: Number(row['ino']),
		size: Number(row['size']),
		mtimeMs: Number(row['mtime_ms']),
		consumed: Number(row['consumed']),
		firstLineHash: text('first_line_hash'),
		unlisted: text('unlisted'),
		header,
		summary: {
			header: sHeader === 'session' || sHeader === 'other' ? sHeader : 'none',
			headerTimestamp: text('s_header_timestamp'),
			name: text('name'),
			firstUserMessage: text('first_message'),
			entryCount: number('entry_count') ?? 0,
			messageCount: number('message_count') ?? 0,
			lastActivity: number('last_activity'),
			invalidLineCount: number('invalid_lines') ?? 0,
			lineCount: number('line_count') ?? 0,
		},
	};
}

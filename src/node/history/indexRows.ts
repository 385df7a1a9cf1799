/**
 * Reading and writing the index's rows (`indexSchema.ts`): a session's file identity, header and
 * summary, and what its lines gave (usage records, pi-condense events, search texts). Synchronous:
 * called inside one locked transaction by `IndexDatabase`.
 */
import type { ExtractedLines } from '../../engine/history/extractLines';
import type { SessionSummary } from '../../engine/session/summary';
import type { SessionHeader } from '../../engine/session/types';
import { DOC_ROLES, DOCS_PER_SESSION, USAGE_SOURCES } from './indexSchema';
import type { SqlDatabase, SqlRow, SqlValue } from './sqlite/sqlDatabase';

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

/** The doc ids of a session, first and last. */
export function docRange(sid: number): [number, number] {
	return [sid * DOCS_PER_SESSION, (sid + 1) * DOCS_PER_SESSION - 1];
}

/** Adds what some lines of a file gave. */
export function insertExtracted(db: SqlDatabase, sid: number, extracted: Omit<ExtractedLines, 'summary'>): void {
	const modelIds = new Map<string, number>();
	const modelId = (provider: string | undefined, model: string | undefined): number | null => {
		if (provider === undefined && model === undefined) {
			return null;
		}
		const key = `${provider ?? ''}\u0000${model ?? ''}`;
		let id = modelIds.get(key);
		if (id === undefined) {
			db.prepare('INSERT INTO models (provider, model) VALUES (?, ?) ON CONFLICT DO NOTHING').run([provider ?? null, model ?? null]);
			id = Number(db.prepare('SELECT model_id FROM models WHERE provider IS ? AND model IS ?').get([provider ?? null, model ?? null])?.['model_id']);
			modelIds.set(key, id);
		}
		return id;
	};
	insertRows(db, 'INSERT OR REPLACE INTO usage (sid, line, entry_id, source, kind, model_id, time, input, output, cache_read, cache_write, total_tokens, cost) VALUES', 13, extracted.usage.map((u) => [
		sid, u.line, u.entryId ?? null, USAGE_SOURCES.indexOf(u.source), u.kind ?? null, modelId(u.provider, u.model), u.time ?? null, u.input, u.output, u.cacheRead, u.cacheWrite, u.totalTokens, u.cost,
	]));
	insertRows(db, 'INSERT OR REPLACE INTO events (sid, line, entry_id, entry_type, custom_type, time, facts) VALUES', 7, extracted.events.map((e) => [
		sid, e.line, e.entryId ?? null, e.entryType, e.customType, e.time ?? null, e.facts,
	]));
	if (extracted.docs.length === 0) {
		return;
	}
	// Ids taken here, not returned per row: the transaction holds the write lock, nobody else inserts.
	const [first, last] = docRange(sid);
	let id = Number(db.prepare('SELECT coalesce(max(doc), ?) AS last FROM docs WHERE doc BETWEEN ? AND ?').get([first - 1, first, last])?.['last']);
	const ids = extracted.docs.map(() => ++id);
	insertRows(db, 'INSERT INTO docs (doc, role, time, line, offset, bytes) VALUES', 6, extracted.docs.map((d, i) => [
		ids[i] as number, DOC_ROLES.indexOf(d.role), d.time ?? null, d.line, d.offset, d.bytes,
	]));
	insertRows(db, 'INSERT INTO docs_text (rowid, text) VALUES', 2, extracted.docs.map((d, i) => [ids[i] as number, d.text]));
}

/** Rows inserted ROWS_PER_INSERT at a time: one statement per row costs more in calls than in SQLite. */
const ROWS_PER_INSERT = 32;

const statementTexts = new Map<string, string>();

/** `insert` followed by `count` rows of `columns` placeholders (made once per shape). */
function statementText(insert: string, columns: number, count: number): string {
	const key = `${count}:${insert}`;
	let text = statementTexts.get(key);
	if (text === undefined) {
		text = `${insert} ${Array.from({ length: count }, () => `(${Array.from({ length: columns }, () => '?').join(', ')})`).join(', ')}`;
		statementTexts.set(key, text);
	}
	return text;
}

function insertRows(db: SqlDatabase, insert: string, columns: number, rows: readonly SqlValue[][]): void {
	const placeholders = (count: number): string => statementText(insert, columns, count);
	let at = 0;
	if (rows.length >= ROWS_PER_INSERT) {
		const many = db.prepare(placeholders(ROWS_PER_INSERT));
		for (; at + ROWS_PER_INSERT <= rows.length; at += ROWS_PER_INSERT) {
			many.run(rows.slice(at, at + ROWS_PER_INSERT).flat());
		}
	}
	if (at < rows.length) {
		const one = db.prepare(placeholders(1));
		for (; at < rows.length; at++) {
			one.run(rows[at]);
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

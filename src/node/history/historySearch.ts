/**
 * Full-text search over the whole history: the messages where all the words occur, ranked by
 * SQLite FTS5's bm25, grouped by session (a session ranks by its best message). The index keeps no
 * copy of the texts, so a found message's line is read again from its file (a few small reads) to
 * show where the words are; a line that changed since is shown without its text.
 */
import { open } from 'node:fs/promises';
import { entryFacts } from '../../engine/history';
import type { DocRole } from '../../engine/history';
import { exactLine, parseLine } from '../../engine/history';
import { searchQuery, snippetOf, type Snippet } from '../../engine/history';
import { sessionModifiedTime } from '../../engine/session';
import { sessionTitle } from '../../engine/views';
import { isPlainObject } from '../../base/plainObject';
import { READ_WITHOUT_BLOCKING } from '../fs/openFlags';
import { readRange } from '../sessions/completeLines';
import { splitPiece } from './fileLines';
import type { HistoryIndex } from './historyIndex';
import { sessionsOf } from './indexRows';
import { inList, type SqlDatabase, type SqlRow } from './sqlite/sqlDatabase';
import { DOC_ROLES, DOCS_PER_SESSION } from './indexSchema';

export interface MessageHit {
	/** The entry's id, read from its line (undefined when the line could not be read again). */
	readonly entryId?: string;
	readonly role: DocRole;
	/** Epoch ms. */
	readonly time: number | undefined;
	/** 1-based line in the session file. */
	readonly line: number;
	/** bm25: lower is better. */
	readonly score: number;
	/** Where the words are in the message; undefined when its line could not be read again. */
	readonly snippet: Snippet | undefined;
}

export interface SessionHits {
	readonly path: string;
	readonly id: string;
	readonly cwd: string;
	readonly title: string;
	/** Pi's "modified" (last activity), epoch ms. */
	readonly modified: number;
	/** Its messages that match, best first. */
	readonly messages: readonly MessageHit[];
}

export interface SearchOptions {
	/** Sessions returned at most (default 20). */
	readonly sessions?: number;
	/** Messages per session at most (default 3). */
	readonly messagesPerSession?: number;
	/** Only sessions under these folders (default: all indexed). */
	readonly roots?: readonly string[];
}

/** Matching messages ranked at most: enough for the sessions asked for, unless a few sessions hold most of the best. */
const RANKED_MESSAGES = 400;

const MESSAGE_COLUMNS = `d.doc / ${DOCS_PER_SESSION} AS sid, d.role AS role, d.time AS time, d.line AS line, d.offset AS offset, d.bytes AS bytes, m.score AS score`;

/** A found line longer than this is not read again to show its words. */
const SNIPPET_LINE_MAX_BYTES = 4 * 1024 * 1024;

export async function searchHistory(index: HistoryIndex, input: string, options: SearchOptions = {}): Promise<SessionHits[]> {
	const query = searchQuery(input);
	if (query.match === '') {
		return [];
	}
	const sessionsWanted = options.sessions ?? 20;
	const perSession = options.messagesPerSession ?? 3;
	const roots = options.roots;
	const found = await index.db.read((db) => {
		const ranked = rankedMessages(db, query.match, roots, sessionsWanted, perSession);
		const sids = [...new Set(ranked.map((row) => Number(row['sid'])))];
		const sessions = sids.length === 0 ? [] : sessionsOf(db, `WHERE sid IN ${inList(sids)}`, sids);
		return { ranked, sessions };
	});
	const bySid = new Map(found.sessions.filter((row) => row.header && (!roots || roots.includes(row.root))).map((row) => [row.sid, row]));
	const grouped = new Map<number, { row: (typeof found.sessions)[number]; hits: { line: number; offset: number; bytes: number; hit: Omit<MessageHit, 'snippet'> }[] }>();
	for (const ranked of found.ranked) {
		const row = bySid.get(Number(ranked['sid']));
		if (!row) {
			continue;
		}
		let group = grouped.get(row.sid);
		if (!group) {
			if (grouped.size >= sessionsWanted) {
				continue;
			}
			group = { row, hits: [] };
			grouped.set(row.sid, group);
		}
		if (group.hits.length < perSession) {
			const role: DocRole = DOC_ROLES[Number(ranked['role'])] ?? 'user';
			group.hits.push({
				line: Number(ranked['line']),
				offset: Number(ranked['offset']),
				bytes: Number(ranked['bytes']),
				hit: { role, time: ranked['time'] === null ? undefined : Number(ranked['time']), line: Number(ranked['line']), score: Number(ranked['score']) },
			});
		}
	}
	const results: SessionHits[] = [];
	for (const { row, hits } of grouped.values()) {
		const header = row.header as NonNullable<typeof row.header>;
		const messages: MessageHit[] = [];
		for (const { offset, bytes, hit } of hits) {
			const found = await lineAt(row.path, offset, bytes, query.words);
			messages.push({ ...hit, ...found });
		}
		results.push({
			path: row.path,
			id: header.id,
			cwd: header.cwd,
			title: sessionTitle({ file: { path: row.path, header }, summary: { summary: row.summary } }),
			modified: sessionModifiedTime(row.summary, row.mtimeMs),
			messages,
		});
	}
	return results;
}

/**
 * The best matching messages, best first: the RANKED_MESSAGES best, and when those come from fewer
 * than `sessionsWanted` sessions while more match, the best message of each of the next best
 * sessions too (a session holding hundreds of the best matches would otherwise be all there is);
 * only each session's best when one message per session is wanted (the sessions filter).
 * With `roots`, only sessions under those folders: the index also holds other folders' sessions
 * (other agent directories, windows with another `sessionDir`), whose matches would take the places.
 */
function rankedMessages(db: SqlDatabase, match: string, roots: readonly string[] | undefined, sessionsWanted: number, perSession: number): SqlRow[] {
	const within = roots !== undefined && db.prepare(`SELECT 1 FROM sessions WHERE root NOT IN ${inList(roots)} LIMIT 1`).get(roots) !== undefined
		? { sql: ` AND rowid / ${DOCS_PER_SESSION} IN (SELECT sid FROM sessions WHERE root IN ${inList(roots)})`, params: roots }
		: { sql: '', params: [] };
	// Each session's best message (min() makes the bare rowid the best row's); materialized, so bm25 is read where FTS5 can give it.
	const bestOfSessions = (count: number): SqlRow[] => db.prepare(`WITH matched AS MATERIALIZED (SELECT rowid, bm25(docs_text) AS score FROM docs_text WHERE docs_text MATCH ?${within.sql})
		SELECT ${MESSAGE_COLUMNS} FROM (SELECT rowid, min(score) AS score FROM matched GROUP BY rowid / ${DOCS_PER_SESSION} ORDER BY score LIMIT ?) AS m
		JOIN docs d ON d.doc = m.rowid ORDER BY m.score`).all([match, ...within.params, count]);
	if (perSession === 1) {
		return bestOfSessions(sessionsWanted);
	}
	const best = db.prepare(`SELECT ${MESSAGE_COLUMNS}
		FROM (SELECT rowid, bm25(docs_text) AS score FROM docs_text WHERE docs_text MATCH ?${within.sql} ORDER BY score LIMIT ?) AS m JOIN docs d ON d.doc = m.rowid ORDER BY m.score`).all([match, ...within.params, RANKED_MESSAGES]);
	const seen = new Set(best.map((row) => Number(row['sid'])));
	if (best.length < RANKED_MESSAGES || seen.size >= sessionsWanted) {
		return best;
	}
	return [...best, ...bestOfSessions(sessionsWanted + seen.size).filter((row) => !seen.has(Number(row['sid'])))];
}

/** The found message, read again from its line: its entry id and its text around the words. */
async function lineAt(path: string, offset: number, bytes: number, words: readonly string[]): Promise<{ entryId?: string; snippet: Snippet | undefined }> {
	if (bytes > SNIPPET_LINE_MAX_BYTES) {
		return { snippet: undefined };
	}
	let handle;
	try {
		handle = await open(path, READ_WITHOUT_BLOCKING);
		const piece = await readRange(handle, offset, offset + bytes);
		const line = splitPiece(piece, offset)[0];
		if (!line || piece.length !== bytes) {
			return { snippet: undefined };
		}
		const exact = exactLine(line);
		const value = parseLine(exact);
		if (!isPlainObject(value)) {
			return { snippet: undefined };
		}
		const doc = entryFacts(value, { lineNumber: 0, line: exact }).doc;
		return { ...(typeof value.id === 'string' ? { entryId: value.id } : {}), snippet: doc && snippetOf(doc.text, words) };
	} catch {
		return { snippet: undefined };
	} finally {
		await handle?.close();
	}
}

/**
 * Brings one file's rows up to date, at the least cost: an unchanged file (same inode, size and
 * mtime) costs a `stat`; a file that grew with the same first line and inode costs its appended
 * bytes, read from where the index stopped (at a complete line); a file whose first line changed,
 * that shrank or that has a new inode is read again from its start; a file that is gone leaves the
 * index. A file read in parts (a build stopped midway) is continued the same way.
 */
import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { extractLinesSteps } from '../../engine/history/extractLines';
import type { CondenseEvent, SearchDoc, UsageRecord } from '../../engine/history/historyRecords';
import type { RawLine } from '../../engine/history/rawLine';
import { parseHeaderLine } from '../../engine/session/headerLine';
import { EMPTY_SUMMARY, type SessionSummary } from '../../engine/session/summary';
import type { SessionHeader } from '../../engine/session/types';
import type { Steps } from '../../engine/steps';
import { errorCode } from '../fs/errors';
import { readFirstLine } from '../sessions/firstLine';
import { readLinesFrom } from './fileLines';
import { deleteContent, deleteSession, insertExtracted, upsertSession, type StoredSession } from './indexRows';
import type { IndexWriter } from './indexWriter';
import type { SqlDatabase } from './sqlite/sqlDatabase';

/** Session bytes whose rows are written together (a stopped build keeps at least what was written). */
const GATHER_BYTES = 4 * 1024 * 1024;

/** Runs a long pass of the engine: in slices on a shared thread, at once in the command line. */
export type StepRunner = <T>(steps: Steps<T>, signal?: AbortSignal) => Promise<T>;

export type FileOutcome = 'unchanged' | 'appended' | 'indexed' | 'unlisted' | 'removed';

export interface FileIndexContext {
	readonly writer: IndexWriter;
	readonly run: StepRunner;
	readonly signal?: AbortSignal;
	/** Called with the bytes read as they are read (progress). */
	readonly onBytes?: (bytes: number) => void;
}

const FIRST_LINE_REASONS = {
	'empty': 'the file is empty',
	'incomplete': 'line 1 is not complete yet (no newline)',
	'too-long': 'line 1 is longer than 64 KB',
} as const;

/** Brings `path` (found under the session folder `root`) up to date; `stored` is what the index has of it. */
export async function indexFile(path: string, root: string, stored: StoredSession | undefined, context: FileIndexContext): Promise<FileOutcome> {
	let stats: Stats;
	try {
		stats = await stat(path);
	} catch (error) {
		if (errorCode(error) !== 'ENOENT' && errorCode(error) !== 'ENOTDIR') {
			throw error;
		}
		if (stored) {
			await context.writer.add(undefined, 0, path, (db) => void deleteSession(db, path));
		}
		return 'removed';
	}
	if (stored && stored.size >= 0 && stored.ino === stats.ino && stored.size === stats.size && stored.mtimeMs === stats.mtimeMs && stored.root === root) {
		return 'unchanged';
	}
	const handle = await open(path, 'r');
	try {
		const identity = { path, root, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
		const first = await readFirstLine(handle);
		const firstLineHash = first.kind === 'line' ? createHash('sha256').update(first.prefix).digest('hex') : undefined;
		const parsed = first.kind === 'line' ? parseHeaderLine(first.text) : { ok: false as const, reason: FIRST_LINE_REASONS[first.kind] };
		if (!parsed.ok) {
			const unlisted: StoredSession = { ...identity, consumed: 0, firstLineHash, unlisted: parsed.reason, header: undefined, summary: EMPTY_SUMMARY };
			await context.writer.add((db) => {
				deleteContent(db, upsertSession(db, unlisted));
			}, 0, path, (db) => void upsertSession(db, unlisted));
			return 'unlisted';
		}
		const continues = stored !== undefined && stored.unlisted === undefined && stored.ino === stats.ino && stats.size >= stored.consumed
			&& stored.firstLineHash !== undefined && stored.firstLineHash === firstLineHash;
		const start = continues ? stored.consumed : 0;
		let summary: SessionSummary = continues ? stored.summary : EMPTY_SUMMARY;
		// A file read again from its start forgets what its earlier lines gave (nothing to forget for a new one).
		let restart = !continues && stored !== undefined;
		const base = { ...identity, firstLineHash, unlisted: undefined, header: parsed.header };
		/** The file's row id, made by its first write (a batch's writes run in order, in one transaction). */
		let sid: number | undefined;
		const rowAs = (consumed: number, complete: boolean): StoredSession => ({ ...base, size: complete ? stats.size : -1, consumed, summary });
		const sidIn = (db: SqlDatabase, row: StoredSession): number => (sid ??= upsertSession(db, row));
		const write = async (bytes: number, consumed: number, complete: boolean, extracted: Parameters<typeof insertExtracted>[2] | undefined): Promise<void> => {
			const row = rowAs(consumed, complete);
			const clear = restart;
			restart = false;
			const content = clear || extracted ? (db: SqlDatabase): void => {
				const id = sidIn(db, row);
				if (clear) {
					deleteContent(db, id);
				}
				if (extracted) {
					insertExtracted(db, id, extracted);
				}
			} : undefined;
			await context.writer.add(content, bytes, path, (db) => {
				sid = upsertSession(db, row);
			});
		};
		// What the lines gave is written a few MB of lines at a time: rows inserted many per statement.
		let gathered: { usage: UsageRecord[]; events: CondenseEvent[]; docs: SearchDoc[]; bytes: number } = { usage: [], events: [], docs: [], bytes: 0 };
		let gatheredTo = start;
		const writeGathered = async (complete: boolean): Promise<void> => {
			const { usage, events, docs, bytes } = gathered;
			gathered = { usage: [], events: [], docs: [], bytes: 0 };
			await write(bytes, gatheredTo, complete, usage.length + events.length + docs.length > 0 ? { usage, events, docs } : undefined);
		};
		const consumed = await readLinesFrom(handle, start, stats.size, async (lines, reached) => {
			const extracted = await context.run(extractLinesSteps(summary, lines), context.signal);
			summary = extracted.summary;
			context.onBytes?.(lineBytes(lines));
			gathered.usage.push(...extracted.usage);
			gathered.events.push(...extracted.events);
			gathered.docs.push(...extracted.docs);
			gathered.bytes += reached - gatheredTo;
			gatheredTo = reached;
			if (gathered.bytes >= GATHER_BYTES) {
				await writeGathered(false);
			}
		}, context.signal);
		gatheredTo = consumed;
		await writeGathered(true);
		return continues ? 'appended' : 'indexed';
	} finally {
		await handle.close();
	}
}

function lineBytes(lines: readonly RawLine[]): number {
	let bytes = 0;
	for (const line of lines) {
		bytes += line.bytes + 1;
	}
	return bytes;
}

export type { SessionHeader };

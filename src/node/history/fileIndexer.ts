/**
 * Brings one file's rows up to date, at the least cost: an unchanged file (same inode, size and
 * mtime) costs a `stat`; a file that grew with the same first line and inode costs its appended
 * bytes, read from where the index stopped (at a complete line); a file whose first line changed,
 * that shrank or that has a new inode is read again from its start; a file that is gone leaves the
 * index. A file read in parts (a build stopped midway) is continued the same way.
 *
 * In two halves, so the reading can run in a worker thread while this one writes: `decideFile`
 * (what the file needs, from its `stat` and first line: plain data) and the lines' extraction
 * (`fileExtraction.ts`) on one side, `FileWrites` (the rows each of those gives) on the other.
 */
import { createHash } from 'node:crypto';
import { EMPTY_SUMMARY, parseHeaderLine, type SessionSummary } from '../../engine/session';
import type { ReadAheadFile } from '../sessions/readAheadLines';
import { readFirstLine } from '../sessions/firstLine';
import { deleteContent, deleteSession, insertExtracted, upsertSession, type StoredSession } from './indexRows';
import type { IndexWriter } from './indexWriter';
import { isEmptyColumns, type RowColumns } from './rowColumns';
import type { SqlDatabase } from './sqlite/sqlDatabase';

/** What some lines of a file gave: the summary after them, their rows, and where they end. */
export interface ExtractedBatch {
	readonly summary: SessionSummary;
	readonly rows: RowColumns;
	/** The offset after the last complete line read so far. */
	readonly reached: number;
	/** Bytes of lines this batch covers. */
	readonly bytes: number;
	/** True for the file's last batch (possibly empty): `reached` is then how far the file was read. */
	readonly last: boolean;
}

export type FileOutcome = 'unchanged' | 'appended' | 'indexed' | 'unlisted' | 'removed';

/** A file to bring up to date (found under the session folder `root`), and what the index has of it. */
export interface FileJob {
	readonly path: string;
	readonly root: string;
	readonly stored: StoredSession | undefined;
}

/** A file's row without what its lines gave. */
export type FileBase = Omit<StoredSession, 'consumed' | 'summary'>;

/** What a file needs (plain data: it may come from a worker thread). */
export type FileDecision =
	| { readonly kind: 'removed' | 'unchanged' }
	| { readonly kind: 'unlisted'; readonly row: StoredSession }
	/** Its lines from `start` follow `summary`; `restart`: forget what its earlier lines gave first. */
	| { readonly kind: 'read'; readonly outcome: 'appended' | 'indexed'; readonly base: FileBase; readonly start: number; readonly summary: SessionSummary; readonly restart: boolean };

/** An open session file: its reads (ahead where it can) and its `stat`. */
export interface OpenedFile extends ReadAheadFile {
	stat(): Promise<{ readonly ino: number; readonly size: number; readonly mtimeMs: number; isFile(): boolean }>;
}

const FIRST_LINE_REASONS = {
	'empty': 'the file is empty',
	'incomplete': 'line 1 is not complete yet (no newline)',
	'too-long': 'line 1 is longer than 64 KB',
} as const;

/** True when the stored row is of exactly this file as it is: nothing to read. */
export function isUnchanged(stored: StoredSession | undefined, root: string, stats: { readonly ino: number; readonly size: number; readonly mtimeMs: number }): boolean {
	return stored !== undefined && stored.size >= 0 && stored.ino === stats.ino && stored.size === stats.size && stored.mtimeMs === stats.mtimeMs && stored.root === root;
}

/** What `job`'s file (open as `file`) needs. */
export async function decideFile(job: FileJob, file: OpenedFile): Promise<FileDecision> {
	const { path, root, stored } = job;
	const stats = await file.stat();
	if (!stats.isFile()) {
		return { kind: 'removed' }; // a FIFO or a device put in a session's place (opened without blocking): no session
	}
	if (isUnchanged(stored, root, stats)) {
		return { kind: 'unchanged' };
	}
	const identity = { path, root, ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
	const first = await readFirstLine(file);
	const firstLineHash = first.kind === 'line' ? createHash('sha256').update(first.prefix).digest('hex') : undefined;
	const parsed = first.kind === 'line' ? parseHeaderLine(first.text) : { ok: false as const, reason: FIRST_LINE_REASONS[first.kind] };
	if (!parsed.ok) {
		return { kind: 'unlisted', row: { ...identity, consumed: 0, firstLineHash, unlisted: parsed.reason, header: undefined, summary: EMPTY_SUMMARY } };
	}
	const continues = stored !== undefined && stored.unlisted === undefined && stored.ino === stats.ino && stats.size >= stored.consumed
		&& stored.firstLineHash !== undefined && stored.firstLineHash === firstLineHash;
	return {
		kind: 'read',
		outcome: continues ? 'appended' : 'indexed',
		base: { ...identity, firstLineHash, unlisted: undefined, header: parsed.header },
		start: continues ? stored.consumed : 0,
		summary: continues ? stored.summary : EMPTY_SUMMARY,
		// A file read again from its start forgets what its earlier lines gave (nothing to forget for a new one).
		restart: !continues && stored !== undefined,
	};
}

/** Where what a file needs goes: its decision, then (to read) its batches, in order. */
export interface FileSink {
	decided(decision: FileDecision): Promise<void>;
	batch(batch: ExtractedBatch): Promise<void>;
}

/** The index writes of one file: queued in `writer`, which commits them with other files'. */
export class FileWrites implements FileSink {
	private decision: FileDecision | undefined;
	/** The file's row id, made by its first write (a batch's writes run in order, in one transaction). */
	private sid: number | undefined;
	private restart = false;

	constructor(readonly job: FileJob, private readonly writer: IndexWriter, private readonly onBytes?: (bytes: number) => void) {}

	/** The outcome, once decided. */
	get outcome(): FileOutcome | undefined {
		const decision = this.decision;
		return decision === undefined ? undefined : decision.kind === 'read' ? decision.outcome : decision.kind;
	}

	async decided(decision: FileDecision): Promise<void> {
		this.decision = decision;
		const { path } = this.job;
		switch (decision.kind) {
			case 'removed':
				if (this.job.stored) {
					await this.writer.add(undefined, 0, path, (db) => void deleteSession(db, path));
				}
				return;
			case 'unlisted':
				await this.writer.add((db) => {
					deleteContent(db, upsertSession(db, decision.row));
				}, 0, path, (db) => void upsertSession(db, decision.row));
				return;
			case 'read':
				this.restart = decision.restart;
				return;
			case 'unchanged':
				return;
		}
	}

	async batch(batch: ExtractedBatch): Promise<void> {
		const decision = this.decision;
		if (decision?.kind !== 'read') {
			throw new Error(`lines of ${this.job.path} came without a decision to read them`);
		}
		const row: StoredSession = { ...decision.base, size: batch.last ? decision.base.size : -1, consumed: batch.reached, summary: batch.summary };
		const clear = this.restart;
		this.restart = false;
		const hasRows = !isEmptyColumns(batch.rows);
		const content = clear || hasRows ? (db: SqlDatabase): void => {
			const id = this.sidIn(db, row);
			if (clear) {
				deleteContent(db, id);
			}
			if (hasRows) {
				insertExtracted(db, id, batch.rows);
			}
		} : undefined;
		await this.writer.add(content, batch.bytes, this.job.path, (db) => {
			this.sid = upsertSession(db, row);
		});
		this.onBytes?.(batch.bytes);
	}

	private sidIn(db: SqlDatabase, row: StoredSession): number {
		this.sid ??= upsertSession(db, row);
		return this.sid;
	}
}

/**
 * One refresh of the session index over a list of files: a `stat` of each (many at once: on a warm
 * index that is all there is), then the files that changed are read, the next ones while earlier
 * ones are written. When more than a few MB are to be read in all, files are read and extracted in
 * worker threads (`extractionPool.ts`), from the first, while this thread writes their rows; else,
 * and with no threads, here, in slices. What was written stays when the refresh stops or fails.
 */
import { stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { mapLimited } from '../../engine/flush';
import { errorMessage } from '../../base/errorMessage';
import { ExtractionPool } from './extractionPool';
import { inThreadReader, isGone, type FileReader, type StepRunner } from './fileExtraction';
import { FileWrites, isUnchanged, type FileJob, type FileOutcome } from './fileIndexer';
import { IndexOffError, IndexRebuiltError } from './indexDatabase';
import { deleteSession, type StoredRow } from './indexRows';
import type { IndexWriter } from './indexWriter';

export interface RefreshProgress {
	readonly filesDone: number;
	readonly filesTotal: number;
	/** Bytes of session lines read so far (0 on a warm refresh). */
	readonly bytesRead: number;
}

export interface RefreshOptions {
	readonly signal?: AbortSignal;
	/** Files to bring up to date before the others (the selected session). */
	readonly first?: readonly string[];
	readonly onProgress?: (progress: RefreshProgress) => void;
}

export interface RefreshResult {
	readonly outcomes: ReadonlyMap<FileOutcome, number>;
	/** Files that could not be read, with why. */
	readonly problems: readonly string[];
	readonly bytesRead: number;
}

export interface RefreshContext {
	readonly writer: IndexWriter;
	/** Runs the engine's pass on this thread (in slices). */
	readonly run: StepRunner;
	/** The folder of `history-worker.js`. */
	readonly distDir: string;
	/** Extraction threads to start at most (0: none). */
	readonly extractionThreads: number | undefined;
	/** Bytes to read in all from which threads read the files (default THREADS_FROM_BYTES). */
	readonly threadsFromBytes: number | undefined;
}

/** `stat`s in flight at once: the thread pool's threads all busy, without a promise per file at once. */
export const STATS_AT_ONCE = 32;

/** Bytes to read in all from which extraction threads start (one costs tens of milliseconds to start): a few appended lines are read here. */
const THREADS_FROM_BYTES = 4 * 1024 * 1024;

/** Files read ahead of the one being written, and their bytes at most: enough to keep the threads busy, few enough to stop at once. */
const FILES_AHEAD = 64;
const BYTES_AHEAD = 64 * 1024 * 1024;

/** Brings `files` up to date (`stored`: what the index has of them and of files no longer listed, which leave it). */
export async function refreshFiles(
	files: readonly { readonly path: string; readonly root: string }[],
	stored: ReadonlyMap<string, StoredRow>,
	context: RefreshContext,
	options: RefreshOptions,
	problems: string[],
): Promise<RefreshResult> {
	const { writer } = context;
	const { signal } = options;
	const outcomes = new Map<FileOutcome, number>();
	const count = (outcome: FileOutcome | undefined, files = 1): void => {
		if (outcome !== undefined) {
			outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + files);
		}
	};
	let bytesRead = 0;
	let filesDone = 0;
	const report = (): void => options.onProgress?.({ filesDone, filesTotal: files.length, bytesRead });
	const fileDone = (): void => {
		filesDone++;
		report();
	};
	const onBytes = (bytes: number): void => {
		bytesRead += bytes;
		report();
	};
	const failed = (path: string, error: unknown): void => {
		if (signal?.aborted || error instanceof IndexRebuiltError || error instanceof IndexOffError) {
			throw error;
		}
		problems.push(`${path}: ${errorMessage(error)}`);
	};
	/** Files being read, oldest first: their reads run ahead while earlier files are written. */
	const reading: { done: Promise<void>; bytes: number }[] = [];
	let bytesAhead = 0;
	const finishOldest = async (): Promise<void> => {
		const oldest = reading.shift();
		if (oldest) {
			bytesAhead -= oldest.bytes;
			await oldest.done;
		}
	};
	const stats = await mapLimited(files, STATS_AT_ONCE, (file) => stat(file.path).catch((error: unknown) => error));
	const readers = new Readers(context, bytesToRead(files, stats, stored));
	try {
		for (const [i, file] of files.entries()) {
			signal?.throwIfAborted();
			const fileStats = stats[i];
			const job: FileJob = { path: file.path, root: file.root, stored: stored.get(file.path) };
			const writes = new FileWrites(job, writer, onBytes);
			if (!isStats(fileStats)) {
				if (isGone(fileStats)) {
					await writes.decided({ kind: 'removed' });
					count(writes.outcome);
				} else {
					failed(file.path, fileStats);
				}
				fileDone();
				continue;
			}
			if (isUnchanged(job.stored, file.root, fileStats)) {
				count('unchanged');
				fileDone();
				continue;
			}
			const bytes = Math.max(0, fileStats.size - (job.stored?.consumed ?? 0));
			const done = readers.for()(job, writes, signal).then(
				() => count(writes.outcome),
				(error: unknown) => failed(file.path, error),
			).finally(fileDone);
			// Settled here too, so a failure before its turn is not reported as unhandled.
			done.catch(() => undefined);
			reading.push({ done, bytes });
			bytesAhead += bytes;
			while (reading.length > (readers.threaded ? FILES_AHEAD : 0) || bytesAhead > BYTES_AHEAD) {
				await finishOldest();
			}
		}
		while (reading.length > 0) {
			await finishOldest();
		}
		const listed = new Set(files.map((file) => file.path));
		const gone = [...stored.keys()].filter((path) => !listed.has(path));
		for (const path of gone) {
			await writer.add(undefined, 0, path, (db) => void deleteSession(db, path));
		}
		count('removed', gone.length);
		await writer.flush();
		return { outcomes, problems, bytesRead };
	} catch (error) {
		// What was read ahead is dropped (the threads stop); those files go on from their stored offset next time.
		await readers.close();
		await Promise.allSettled(reading.map((file) => file.done));
		if (error instanceof IndexRebuiltError || error instanceof IndexOffError) {
			writer.discard(); // written for a file that is no longer there
		} else {
			// What was read is kept, also when stopped: the next refresh goes on from there.
			await writer.flush().catch(() => undefined);
		}
		throw error;
	} finally {
		await readers.close();
	}
}

/** The bytes the files that changed have beyond what the index read of them. */
function bytesToRead(files: readonly { readonly path: string; readonly root: string }[], stats: readonly unknown[], stored: ReadonlyMap<string, StoredRow>): number {
	let bytes = 0;
	for (const [i, file] of files.entries()) {
		const fileStats = stats[i];
		const row = stored.get(file.path);
		if (isStats(fileStats) && !isUnchanged(row, file.root, fileStats)) {
			bytes += Math.max(0, fileStats.size - (row?.consumed ?? 0));
		}
	}
	return bytes;
}

function isStats(value: unknown): value is Stats {
	return typeof value === 'object' && value !== null && 'ino' in value && 'mtimeMs' in value;
}

/**
 * Where a refresh's files are read: in extraction threads (started with the first file) when there
 * is more than `threadsFromBytes` to read in all, else here.
 */
class Readers {
	private readonly here: FileReader;
	private pool: ExtractionPool | undefined;

	constructor(private readonly context: RefreshContext, private readonly toRead: number) {
		this.here = inThreadReader(context.run);
	}

	get threaded(): boolean {
		return this.pool !== undefined;
	}

	for(): FileReader {
		const threads = this.context.extractionThreads;
		if (!this.pool && this.toRead >= (this.context.threadsFromBytes ?? THREADS_FROM_BYTES) && threads !== 0) {
			this.pool = ExtractionPool.create(this.context.distDir, threads);
		}
		return this.pool?.read ?? this.here;
	}

	async close(): Promise<void> {
		const pool = this.pool;
		this.pool = undefined;
		await pool?.close();
	}
}

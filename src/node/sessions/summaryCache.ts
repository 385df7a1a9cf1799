/**
 * Cached, incremental summaries of session files for the session list. An unchanged file (same
 * size, mtime and inode) costs one `stat`; a file that only grew is read from where the last scan
 * stopped; anything else (shrunk, replaced, first line changed as when Pi migrates a v1/v2 file) is
 * scanned again. Files are read in pieces, so a session of hundreds of MB never becomes one string.
 */
import { open } from 'node:fs/promises';
import { EMPTY_SUMMARY, sessionModifiedTime, type SessionSummary, summarizeLines } from '../../engine/session';
import { decodeUtf8, PARSE_PIECE_BYTES, scanCompleteLines } from './completeLines';
import { readFirstLinePrefix, stillStartsWith } from './firstLine';

export interface SessionFileSummary {
	readonly path: string;
	readonly size: number;
	readonly mtimeMs: number;
	readonly summary: SessionSummary;
	/** Pi's "modified" time in epoch ms (last activity, else header time, else mtime). */
	readonly modified: number;
	/** Bytes scanned to produce this result: 0 from the cache, the appended bytes after a growth. */
	readonly scannedBytes: number;
}

interface CacheEntry {
	/** What a cache hit returns (`scannedBytes` 0). */
	readonly result: SessionFileSummary;
	readonly ino: number;
	/** Offset after the last complete line summarized. */
	readonly consumed: number;
	/** Bytes of the file through its first line, to notice a rewrite that keeps or grows the size. */
	readonly firstLinePrefix: Buffer | undefined;
}


export class SessionSummaryCache {
	private readonly entries = new Map<string, CacheEntry>();
	private readonly inFlight = new Map<string, Promise<SessionFileSummary>>();

	// Each piece is decoded and summarized in one go on the extension host (1 MB held it ~100 ms on a loaded machine).
	constructor(private readonly chunkBytes = PARSE_PIECE_BYTES) {}

	/**
	 * The summary of `path`, re-using and extending the cached one when possible. `signal` stops a
	 * read between two pieces (a read shared with an earlier caller stops with that caller's signal).
	 */
	summarize(path: string, signal?: AbortSignal): Promise<SessionFileSummary> {
		const running = this.inFlight.get(path);
		if (running) {
			return running;
		}
		const work = this.compute(path, signal)
			.catch((error: unknown) => {
				this.entries.delete(path); // gone or unreadable: nothing cached is trustworthy
				throw error;
			})
			.finally(() => this.inFlight.delete(path));
		this.inFlight.set(path, work);
		return work;
	}

	/** Drops a file (deleted, or no longer shown). */
	forget(path: string): void {
		this.entries.delete(path);
	}

	/** The last computed summary, without touching the disk. */
	peek(path: string): SessionFileSummary | undefined {
		return this.entries.get(path)?.result;
	}

	private async compute(path: string, signal: AbortSignal | undefined): Promise<SessionFileSummary> {
		const handle = await open(path, 'r');
		try {
			const stats = await handle.stat();
			const cached = this.entries.get(path);
			if (cached && cached.ino === stats.ino && cached.result.size === stats.size && cached.result.mtimeMs === stats.mtimeMs) {
				return cached.result;
			}
			const canExtend = cached !== undefined && cached.ino === stats.ino && stats.size >= cached.consumed
				&& await stillStartsWith(handle, cached.firstLinePrefix);
			const from = canExtend ? cached : undefined;
			let summary = from?.result.summary ?? EMPTY_SUMMARY;
			const start = from?.consumed ?? 0;
			const consumed = await scanCompleteLines(handle, start, stats.size, (piece) => {
				summary = summarizeLines(summary, decodeUtf8(piece));
			}, this.chunkBytes, signal);
			const firstLinePrefix = from?.firstLinePrefix ?? await readFirstLinePrefix(handle);
			const result: SessionFileSummary = {
				path,
				size: stats.size,
				mtimeMs: stats.mtimeMs,
				summary,
				modified: sessionModifiedTime(summary, stats.mtimeMs),
				scannedBytes: stats.size - start,
			};
			this.entries.set(path, { result: { ...result, scannedBytes: 0 }, ino: stats.ino, consumed, firstLinePrefix });
			return result;
		} finally {
			await handle.close();
		}
	}
}

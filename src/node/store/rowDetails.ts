/**
 * The background work behind the session list's rows: summaries (name, first message, counts; read
 * incrementally) and reclaim figures (with a cap on file size and on how many one request starts),
 * done a few at a time and only when a view asks. A reclaim figure of a busy session is refreshed
 * after a pause rather than on every appended line.
 */
import type { RenderSettings } from '../settings/readPruneSettings';
import type { Logger } from '../../engine/ports';
import { SessionSummaryCache, type SessionFileSummary } from '../sessions/summaryCache';
import type { OpenSessionCache } from './openSessionCache';
import { measureRowReclaim } from './rowReclaim';
import type { SessionRows } from './sessionRows';
import { errorMessage } from '../../base/errorMessage';
import type { KeyedQueue, ScopeTimer, WorkScope } from '../../work';

const RECLAIM_REFRESH_MS = 2000;

export interface RowDetailsOptions {
	/** Their own scope: the reads run under it, and closing it drops what waits. */
	readonly work: WorkScope;
	/** The summary from the session index, when it answers them; undefined: the file is read here. */
	readonly indexed: (path: string) => Promise<SessionFileSummary | undefined>;
	readonly rows: SessionRows;
	readonly open: OpenSessionCache;
	/** What a session renders with (its project's release); undefined before the settings are read. */
	readonly settings: (path: string) => Promise<RenderSettings | undefined>;
	/** Called when a row got new details. */
	readonly changed: (path: string) => void;
	readonly logger: Logger;
	readonly reclaimMaxBytes: number;
}

export class RowDetails {
	private readonly summaries = new SessionSummaryCache();
	private readonly summaryQueue: KeyedQueue;
	private readonly reclaimQueue: KeyedQueue;
	private readonly reclaimTimers = new Map<string, ScopeTimer>();

	constructor(private readonly options: RowDetailsOptions) {
		// A read stopped because the store is closing (its scope closed) is not a failure to report.
		const failed = (what: string) => (path: string, error: unknown): void => {
			if (!options.work.isClosed) {
				options.logger.warn(`${what} of ${path}: ${errorMessage(error)}`);
			}
		};
		this.summaryQueue = options.work.keyedQueue(2, failed('summary'));
		this.reclaimQueue = options.work.keyedQueue(1, failed('reclaim'));
	}

	/** Summaries of these rows, and reclaim figures of at most `reclaimLimit` of them, in the background. */
	request(paths: readonly string[], reclaimLimit: number): void {
		let reclaims = 0;
		for (const path of paths) {
			const row = this.options.rows.get(path);
			if (!row) {
				continue;
			}
			if (row.summary === undefined && !this.summaryQueue.has(path)) {
				this.summaryQueue.enqueue(path, (signal) => this.summarize(path, signal));
			}
			if (row.reclaim === undefined && reclaims++ < reclaimLimit && !this.reclaimQueue.has(path)) {
				this.reclaimQueue.enqueue(path, (signal) => this.measureReclaim(path, signal));
			}
		}
	}

	/**
	 * Lines were appended: extend a known summary now (from the session index, which reads them, when
	 * it answers), refresh a known reclaim figure later. A row nobody asked a summary of keeps none,
	 * but the index is told all the same, so search finds the new lines at once.
	 */
	afterAppend(path: string): void {
		const row = this.options.rows.get(path);
		if (row?.summary !== undefined) {
			this.summaryQueue.enqueue(path, (signal) => this.summarize(path, signal));
		} else if (row) {
			void this.options.indexed(path).catch((error: unknown) => this.options.logger.warn(`session index: ${path}: ${errorMessage(error)}`));
		}
		if (row?.reclaim !== undefined && !this.reclaimTimers.has(path)) {
			this.reclaimTimers.set(path, this.options.work.timeout(RECLAIM_REFRESH_MS, () => {
				this.reclaimTimers.delete(path);
				this.reclaimQueue.enqueue(path, (signal) => this.measureReclaim(path, signal));
			}));
		}
	}

	forget(path: string): void {
		this.summaries.forget(path);
	}

	idle(): Promise<unknown> {
		return Promise.all([this.summaryQueue.idle(), this.reclaimQueue.idle()]);
	}

	/** Drops the work that has not started (the store stops or starts over). */
	clear(): void {
		for (const timer of this.reclaimTimers.values()) {
			timer.cancel();
		}
		this.reclaimTimers.clear();
		this.summaryQueue.clear();
		this.reclaimQueue.clear();
	}

	/** `signal` is the queue's (the scope closing aborts it): the read stops between two pieces. */
	private async summarize(path: string, signal: AbortSignal): Promise<void> {
		const summary = await this.options.indexed(path) ?? await this.summaries.summarize(path, signal);
		if (this.options.rows.update(path, { summary, size: summary.size })) {
			this.options.changed(path);
		}
	}

	private async measureReclaim(path: string, signal: AbortSignal): Promise<void> {
		const row = this.options.rows.get(path);
		const settings = await this.options.settings(path);
		if (!row || !settings) {
			return;
		}
		const reclaim = await measureRowReclaim(this.options.work, path, row.summary?.size ?? row.file.size, settings, {
			maxBytes: this.options.reclaimMaxBytes,
			openSession: this.options.open.peek(path),
			signal,
		});
		if (this.options.rows.update(path, { reclaim })) {
			this.options.changed(path);
		}
	}
}

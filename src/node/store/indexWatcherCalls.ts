/**
 * The session watcher's calls to the store's index: a file added, grown, rewritten or removed. They
 * run in the queue of the index's changes, after what was queued before them (a refresh among them),
 * so the watcher never races a build on the same file. Before and while a start's refresh runs, a
 * changed file's summary is read from the file instead, and the file is brought up to date once the
 * refresh is done, once however often it changes meanwhile.
 */
import type { HistoryService } from '../history/service/historyService';
import type { SessionRoot } from '../sessions/sessionLocations';
import type { SessionFileSummary } from '../sessions/summaryCache';
import type { SerialQueue, WorkScope } from '../../work';
import { summaryOf } from './storedRows';

export interface IndexWatcherCallsOptions {
	/** The index's work: its signal stops a call. */
	readonly work: WorkScope;
	readonly service: HistoryService;
	/** The index's changes, one at a time. */
	readonly writes: SerialQueue;
	/** Whether a row's summary comes from the index now (not while a build runs, nor once off or cleared). */
	readonly answersSummaries: () => boolean;
	/** Whether the index takes changes (neither off nor cleared). */
	readonly takesChanges: () => boolean;
	/** Turns the index off for this window, and says why. */
	readonly failed: (error: unknown) => false;
}

export class IndexWatcherCalls {
	/** Files changed while the index did not answer (a refresh to come or under way), to bring up to date after it. */
	private readonly catchingUp = new Set<string>();

	constructor(private readonly options: IndexWatcherCallsOptions) {}

	/**
	 * The watcher's call for a file added, grown or rewritten: its summary from the index, when it answers
	 * them. Before and while this start's refresh runs, it answers undefined at once (the file is read
	 * instead), and the file is brought up to date once the refresh is done: the refresh may have listed
	 * or read the file before the change, and no later event need come.
	 */
	fileChanged(path: string, root: SessionRoot): Promise<SessionFileSummary | undefined> {
		const { work, service, writes, answersSummaries, failed } = this.options;
		if (!answersSummaries()) {
			this.catchUpLater(path, root);
			return Promise.resolve(undefined);
		}
		return writes.run(async () => {
			if (!answersSummaries()) {
				return undefined; // cleared or turned off meanwhile
			}
			try {
				const row = await service.fileChanged(path, root, work.signal);
				return row && summaryOf(row);
			} catch (error) {
				failed(error);
				return undefined;
			}
		});
	}

	/** Brings `path` up to date after the calls queued before it (the refresh among them), once however often it changes meanwhile. */
	private catchUpLater(path: string, root: SessionRoot): void {
		const { work, service, writes, takesChanges, failed } = this.options;
		if (!takesChanges() || this.catchingUp.has(path)) {
			return;
		}
		this.catchingUp.add(path);
		void writes.run(async () => {
			this.catchingUp.delete(path);
			if (takesChanges()) {
				await service.fileChanged(path, root, work.signal).catch((error: unknown) => failed(error));
			}
		}).catch(() => undefined); // the window's work closed meanwhile: the next start's refresh reads it
	}

	fileRemoved(path: string): void {
		const { service, writes, takesChanges, failed } = this.options;
		this.catchingUp.delete(path); // a file made again at that path is caught up after the removal
		void writes.run(async () => {
			if (takesChanges()) {
				await service.fileRemoved(path).catch((error: unknown) => failed(error));
			}
		});
	}
}

/**
 * What the session store does with the watcher's events: a session added or rewritten has its
 * first line read again, an append advances the open model and the row, a removal forgets it.
 * Events of one file are handled in order, different files independently.
 */
import { sep } from 'node:path';
import type { Logger } from '../../engine/ports';
import type { SessionRoot } from '../sessions/sessionLocations';
import { readSessionFile } from '../sessions/discoverSessions';
import { FileTaskQueue } from '../sessions/fileTaskQueue';
import type { SessionFileEvent } from '../sessions/sessionWatcher';
import type { OpenSessionCache } from './openSessionCache';
import type { RowDetails } from './rowDetails';
import type { SessionRows } from './sessionRows';
import { errorMessage } from '../../base/errorMessage';
import type { WorkScope } from '../../work';

/** The store's changes a file event can make (`StoreChange` adds the settings). */
export type FileEventChange =
	/** Sessions were added or removed, or the folders changed: the list as a whole. */
	| { readonly kind: 'list' }
	/** Summaries, sizes or reclaim figures of these rows changed. */
	| { readonly kind: 'rows'; readonly paths: readonly string[] }
	/** The model of this open session changed (appended lines, rewrite). */
	| { readonly kind: 'session'; readonly path: string };

export interface StoreFileEventsOptions {
	/** Their own scope: closing it skips the queued events and waits for the one handled. */
	readonly work: WorkScope;
	readonly rows: SessionRows;
	readonly details: RowDetails;
	readonly open: OpenSessionCache;
	/** The session folders being watched now. */
	readonly roots: () => readonly SessionRoot[];
	readonly changed: (change: FileEventChange) => void;
	/** A new session's summary is asked for, as a view would. */
	readonly requestDetails: (paths: readonly string[], reclaimLimit?: number) => void;
	/** A session file was deleted (the session index forgets it). */
	readonly removed: (path: string) => void;
	readonly logger: Logger;
}

export class StoreFileEvents {
	private readonly queue: FileTaskQueue;

	constructor(private readonly options: StoreFileEventsOptions) {
		this.queue = new FileTaskQueue(options.work, 0, (error) => options.logger.warn(`session event: ${errorMessage(error)}`));
	}

	handle(event: SessionFileEvent): void {
		void this.queue.run(event.path, () => this.apply(event)
			.catch((error: unknown) => this.options.logger.warn(`${event.kind} ${event.path}: ${errorMessage(error)}`)));
	}

	idle(): Promise<void> {
		return this.queue.idle();
	}

	private async apply(event: SessionFileEvent): Promise<void> {
		const { rows, details, open, changed } = this.options;
		switch (event.kind) {
			case 'added':
			case 'rewritten':
				return this.readHeaderAgain(event.path, event.kind === 'rewritten');
			case 'appended':
				return this.applyAppend(event.path, event.offset, event.bytes, event.size);
			case 'removed':
				rows.delete(event.path);
				details.forget(event.path);
				open.close(event.path);
				this.options.removed(event.path);
				changed({ kind: 'list' });
				return;
		}
	}

	private async readHeaderAgain(path: string, rewritten: boolean): Promise<void> {
		const { rows, open, changed } = this.options;
		const root = this.options.roots().find((candidate) => path.startsWith(candidate.path + sep));
		const file = root ? await readSessionFile(path, root) : undefined;
		if (!file || !('header' in file)) {
			return; // not (yet) a session: line 1 incomplete or invalid; a later append re-checks
		}
		// A row whose summary was known (shown, or from the session index) gets it again, so the index follows the rewrite.
		const hadSummary = rows.get(path)?.summary !== undefined;
		const isNew = rows.upsertFile(file);
		if (rewritten) {
			rows.update(path, { summary: undefined, reclaim: undefined });
			const session = open.peek(path);
			if (session) {
				await (await session).reload();
				changed({ kind: 'session', path });
			}
		}
		changed(isNew || rewritten ? { kind: 'list' } : { kind: 'rows', paths: [path] });
		if (isNew) {
			this.options.requestDetails([path]);
		} else if (rewritten && hadSummary) {
			this.options.requestDetails([path], 0); // its reclaim figure is measured again when a view asks
		}
	}

	private async applyAppend(path: string, offset: number, bytes: Uint8Array, size: number): Promise<void> {
		const { rows, details, open, changed } = this.options;
		if (!rows.has(path)) {
			// Its first line was incomplete when it was added: it may be a session now.
			return this.readHeaderAgain(path, false);
		}
		const session = open.peek(path);
		if (session && await (await session).applyAppend(offset, bytes)) {
			changed({ kind: 'session', path });
		}
		rows.update(path, { size });
		details.afterAppend(path);
		changed({ kind: 'rows', paths: [path] });
	}
}

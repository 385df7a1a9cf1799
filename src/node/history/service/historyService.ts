/**
 * A window's session index: the index lives on a thread of its own (`historyServiceMain.ts`) and
 * this side sends it calls (see `protocol.ts` for why). Every call takes a signal (an aborted call
 * stops there at its next pause); the service's scope closing closes the index and ends the thread.
 * When the index is off (it cannot be opened, its folder cannot be written, the thread failed), each
 * call rejects with `IndexOffError` and the owner goes on as without an index; `notify` says why, once.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SessionRoot } from '../../sessions/sessionLocations';
import { WorkStopped, type WorkScope } from '../../../work';
import { IndexOffError, type IndexNotice } from '../indexDatabase';
import type { StoredSession } from '../indexRows';
import type { RefreshProgress, RefreshResult } from '../indexRefresh';
import type { SearchOptions, SessionHits } from '../historySearch';
import type { HistoryCosts } from '../historyCostsReport';
import type { AccountsDue } from '../historyCosts';
import type { StoredAccounts } from '../../../engine/costs';
import type { FromService, ServiceCalls, ServiceMethod, ServiceStart, ToService } from './protocol';

export const HISTORY_SERVICE_FILE = 'history-service.js';

export interface HistoryServiceOptions extends ServiceStart {
	/** Told of what the user should know: the index was rebuilt, or is off. */
	readonly notify: (notice: IndexNotice) => void;
}

interface Waiting {
	readonly resolve: (answer: unknown) => void;
	readonly reject: (error: Error) => void;
	readonly onProgress?: (progress: RefreshProgress) => void;
}

export class HistoryService {
	private readonly worker: Worker;
	private readonly waiting = new Map<number, Waiting>();
	private nextId = 0;
	private off: string | undefined;
	private ended = false;
	private readonly exited: Promise<void>;
	/** Resolves with the engine once the index is open, or undefined when it is off. */
	readonly opened: Promise<string | undefined>;

	constructor(work: WorkScope, private readonly options: HistoryServiceOptions) {
		const start: ServiceStart = { path: options.path, ownFolder: options.ownFolder, distDir: options.distDir, batchBytes: options.batchBytes };
		this.worker = new Worker(join(options.distDir, HISTORY_SERVICE_FILE), { workerData: start });
		let opened: (engine: string | undefined) => void = () => undefined;
		this.opened = new Promise((resolve) => {
			opened = resolve;
		});
		this.worker.on('message', (message: FromService) => this.receive(message, opened));
		this.worker.on('error', (error) => this.turnOff(`its thread failed: ${error.message}`));
		this.exited = new Promise((resolve) => this.worker.once('exit', () => {
			this.turnOff('its thread ended');
			opened(undefined);
			resolve();
		}));
		work.onClose(() => this.close());
	}

	/** Why the index is off in this window; undefined while it works. */
	get offReason(): string | undefined {
		return this.off;
	}

	stored(roots: readonly SessionRoot[], signal?: AbortSignal): Promise<StoredSession[]> {
		return this.call('stored', { roots }, signal);
	}

	/** Brings the index up to date with the files under `roots`, `first` first; what was read is kept when stopped. */
	refresh(roots: readonly SessionRoot[], options: { readonly signal?: AbortSignal; readonly first?: readonly string[]; readonly onProgress?: (progress: RefreshProgress) => void } = {}): Promise<RefreshResult> {
		return this.call('refresh', { roots, first: options.first ?? [] }, options.signal, options.onProgress);
	}

	/** The watcher's call: `path` (under `root`) was added, grew or was rewritten; its row afterwards. */
	fileChanged(path: string, root: SessionRoot, signal?: AbortSignal): Promise<StoredSession | undefined> {
		return this.call('fileChanged', { path, root }, signal);
	}

	async fileRemoved(path: string): Promise<void> {
		await this.call('fileRemoved', { path });
	}

	search(input: string, options: SearchOptions, signal?: AbortSignal): Promise<SessionHits[]> {
		return this.call('search', { input, options }, signal);
	}

	/** The costs of the whole history under `roots`, from the index alone (each request once; see docs/costs.md). */
	costs(roots: readonly SessionRoot[], options: { readonly timeZone?: string; readonly top?: number } = {}, signal?: AbortSignal): Promise<HistoryCosts> {
		return this.call('costs', { roots, ...options }, signal);
	}

	/** The pruned sessions under `roots` whose prunes the index does not count (missing, or older than the file). */
	accountsDue(roots: readonly SessionRoot[], signal?: AbortSignal): Promise<AccountsDue[]> {
		return this.call('accountsDue', { roots }, signal);
	}

	/** Keeps a session's prune accounts, worked out from its first `consumed` bytes with `basis` (its release and settings). */
	storeAccounts(path: string, consumed: number, basis: string, accounts: StoredAccounts): Promise<boolean> {
		return this.call('storeAccounts', { path, consumed, basis, accounts });
	}

	/** Forgets every session (Clear the Session Index). */
	async clear(): Promise<void> {
		await this.call('clear', {});
	}

	/** Closes the index and ends its thread (what runs there is stopped first). */
	async close(): Promise<void> {
		if (!this.ended) {
			this.ended = true;
			this.post({ type: 'close' });
		}
		await this.exited;
	}

	private call<M extends ServiceMethod>(method: M, args: ServiceCalls[M]['args'], signal?: AbortSignal, onProgress?: (progress: RefreshProgress) => void): Promise<ServiceCalls[M]['answer']> {
		if (this.off !== undefined) {
			return Promise.reject(new IndexOffError(this.off));
		}
		if (this.ended) {
			return Promise.reject(new WorkStopped('the session index is closing'));
		}
		if (signal?.aborted) {
			return Promise.reject(new WorkStopped('stopped'));
		}
		const id = this.nextId++;
		return new Promise<ServiceCalls[M]['answer']>((resolve, reject) => {
			const abort = (): void => this.post({ type: 'abort', id });
			signal?.addEventListener('abort', abort, { once: true });
			const done = (): void => {
				signal?.removeEventListener('abort', abort);
				this.waiting.delete(id);
			};
			this.waiting.set(id, {
				resolve: (answer) => {
					done();
					resolve(answer as ServiceCalls[M]['answer']);
				},
				reject: (error) => {
					done();
					reject(error);
				},
				onProgress,
			});
			this.post({ type: 'call', id, method, args });
		});
	}

	private receive(message: FromService, opened: (engine: string | undefined) => void): void {
		switch (message.type) {
			case 'opened':
				opened(message.engine);
				if (message.engine === undefined) {
					this.off ??= 'it could not be opened';
				}
				return;
			case 'notice':
				if (message.notice.kind === 'off') {
					this.off = message.notice.detail;
				}
				this.options.notify(message.notice);
				return;
			case 'progress':
				this.waiting.get(message.id)?.onProgress?.(message.progress);
				return;
			case 'answer':
				this.waiting.get(message.id)?.resolve(message.answer);
				return;
			case 'failed': {
				const waiting = this.waiting.get(message.id);
				if (message.kind === 'off') {
					this.off ??= message.message;
				}
				waiting?.reject(message.kind === 'stopped' ? new WorkStopped(message.message) : message.kind === 'off' ? new IndexOffError(message.message) : new Error(message.message));
				return;
			}
			case 'closed':
				return;
		}
	}

	private post(message: ToService): void {
		this.worker.postMessage(message);
	}

	/** The thread failed or ended: every waiting call rejects, and later ones too. */
	private turnOff(reason: string): void {
		const unexpected = !this.ended && this.off === undefined;
		this.off ??= reason;
		for (const waiting of this.waiting.values()) {
			waiting.reject(this.ended ? new WorkStopped('the session index closed') : new IndexOffError(reason));
		}
		this.waiting.clear();
		if (unexpected) {
			this.options.notify({ kind: 'off', reason: 'failed', path: this.options.path, detail: `The session index stopped: ${reason}.` });
		}
	}
}

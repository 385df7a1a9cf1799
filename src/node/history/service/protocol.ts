/**
 * The messages between a window's session index service (`historyService.ts`, on the extension
 * host's thread) and the thread that holds the index (`historyServiceMain.ts`, built to
 * `dist/history-service.js`). SQLite's calls are synchronous and a build's writes, a clear's VACUUM
 * or a search's ranking can each take longer than the 50 ms the extension host may be held, so the
 * index lives on a thread of its own and the host only sends calls and receives plain data.
 */
import type { SessionRoot } from '../../sessions/sessionLocations';
import type { IndexNotice } from '../indexDatabase';
import type { StoredSession } from '../indexRows';
import type { RefreshProgress, RefreshResult } from '../indexRefresh';
import type { SearchOptions, SessionHits } from '../historySearch';
import type { HistoryCosts } from '../historyCostsReport';
import type { AccountsDue } from '../historyCosts';
import type { StoredAccounts } from '../../../engine/costs';

/** What the thread is started with (`workerData`). */
export interface ServiceStart {
	readonly path: string;
	readonly ownFolder: boolean;
	/** The folder of the WebAssembly SQLite chunk and of the extraction worker (`dist/`). */
	readonly distDir: string;
	readonly batchBytes?: number;
}

/** Each call's arguments and answer. */
export interface ServiceCalls {
	stored: { readonly args: { readonly roots: readonly SessionRoot[] }; readonly answer: StoredSession[] };
	refresh: { readonly args: { readonly roots: readonly SessionRoot[]; readonly first: readonly string[] }; readonly answer: RefreshResult };
	/** The file's row after bringing it up to date (undefined: not a file of the index any more). */
	fileChanged: { readonly args: { readonly path: string; readonly root: SessionRoot }; readonly answer: StoredSession | undefined };
	fileRemoved: { readonly args: { readonly path: string }; readonly answer: null };
	search: { readonly args: { readonly input: string; readonly options: SearchOptions }; readonly answer: SessionHits[] };
	clear: { readonly args: Record<string, never>; readonly answer: null };
	/** The costs of the whole history (`historyCostsReport.ts`), from the index alone. */
	costs: { readonly args: { readonly roots: readonly SessionRoot[]; readonly timeZone?: string; readonly top?: number }; readonly answer: HistoryCosts };
	/** The pruned sessions whose accounts are missing or older than their file (any basis will do). */
	accountsDue: { readonly args: { readonly roots: readonly SessionRoot[] }; readonly answer: AccountsDue[] };
	/** Keeps a session's prune accounts, worked out from its first `consumed` bytes with `basis` (false: the index does not hold it). */
	storeAccounts: { readonly args: { readonly path: string; readonly consumed: number; readonly basis: string; readonly accounts: StoredAccounts }; readonly answer: boolean };
}

export type ServiceMethod = keyof ServiceCalls;

export type ToService =
	| { readonly type: 'call'; readonly id: number; readonly method: ServiceMethod; readonly args: ServiceCalls[ServiceMethod]['args'] }
	/** The caller no longer waits: the call stops at its next pause. */
	| { readonly type: 'abort'; readonly id: number }
	/** Finish what runs, close the index and end the thread. */
	| { readonly type: 'close' };

/** How a call failed: stopped (aborted), the index turned off, or anything else. */
export type FailureKind = 'stopped' | 'off' | 'failed';

export type FromService =
	/** The index is open (`engine`: node:sqlite or wasm); or undefined when it is off (a notice says why). */
	| { readonly type: 'opened'; readonly engine: string | undefined }
	| { readonly type: 'notice'; readonly notice: IndexNotice }
	| { readonly type: 'progress'; readonly id: number; readonly progress: RefreshProgress }
	| { readonly type: 'answer'; readonly id: number; readonly answer: ServiceCalls[ServiceMethod]['answer'] }
	| { readonly type: 'failed'; readonly id: number; readonly kind: FailureKind; readonly message: string }
	| { readonly type: 'closed' };

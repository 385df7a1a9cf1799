/**
 * The history's rows (`history.ts`) from what the session index keeps of each session, without
 * reading a session file: its requests (the index's `usage` rows, in file order), the lines where
 * Pi's compactions and branch summaries started the context afresh, and each prune's account as it
 * was last worked out from the file (the accounts need the render engine; the index keeps them).
 *
 * The requests and the cache rebuilds are those `sessionRows` gives from the file: the same request
 * points (`requestOf`'s kinds, provider and model), Pi 1.6.0's cache-miss rule
 * (`RebuildTracker`) over them, priced as `pricedRebuild` prices them. What the index does not keep
 * is not needed here: a rebuild's cause (the markers) and a 1-hour cache write's share. Pure, in steps.
 */
import { Pacer, type Steps } from '../steps';
import { pricedRebuild, RebuildTracker, type FoundRebuild } from './cacheRebuilds';
import type { CostEventRow, ObservedSettings, RequestRow, SessionRow } from './history';
import { requestKey } from './history';
import type { ModelPrice, PriceBook } from './prices';
import { modelKeyOf, type RequestKind, type RequestPoint } from './requestTypes';

/** Who recorded an indexed request's usage (the index's `usage.source`). */
export type IndexedSource = 'assistant' | 'toolResult' | 'compaction' | 'branch_summary' | 'usage';

/** One `usage` row of the index. */
export interface IndexedRequest {
	readonly line: number;
	readonly entryId: string | undefined;
	readonly source: IndexedSource;
	/** A `usage` entry's kind (`cache_warm`…). */
	readonly kind: string | undefined;
	readonly provider: string | undefined;
	readonly model: string | undefined;
	/** Epoch ms the request was made (an assistant message's own time, else its entry's). */
	readonly time: number | undefined;
	/** Epoch ms of its entry. */
	readonly entryTime: number | undefined;
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
	readonly totalTokens: number;
	readonly cost: number;
	readonly costInput: number;
	readonly costOutput: number;
	readonly costCacheRead: number;
	readonly costCacheWrite: number;
}

/** A session's prunes, as last accounted from its file. */
export interface StoredAccounts {
	readonly prunes: readonly CostEventRow[];
	readonly settings: ObservedSettings;
}

/** What the index keeps of a session besides its requests. */
export interface IndexedSessionInfo {
	readonly path: string;
	readonly id: string;
	readonly project: string;
	/** The header's ISO timestamp. */
	readonly started: string;
	readonly parentSession?: string;
	readonly title?: string;
	readonly accounts?: StoredAccounts;
}

export interface IndexedSession extends IndexedSessionInfo {
	/** Its requests, in file order. */
	readonly requests: readonly IndexedRequest[];
	/** Lines of its compactions and branch summaries, ascending. */
	readonly resets: readonly number[];
}

const KIND_OF: Readonly<Record<IndexedSource, RequestKind>> = { assistant: 'reply', toolResult: 'tool', compaction: 'summary', branch_summary: 'summary', usage: 'usage' };

/** The history's rows of every session, as `sessionRows` makes them from the files. */
export function* indexedHistorySteps(sessions: readonly IndexedSession[], book: PriceBook): Steps<{ requests: RequestRow[]; sessions: SessionRow[] }> {
	const requests: RequestRow[] = [];
	const rows: SessionRow[] = [];
	const pacer = new Pacer();
	for (const session of sessions) {
		const sessionBook = unpricedOnly(unpricedModelsOf(session.requests), book);
		const rebuilds: CostEventRow[] = [];
		yield* walkSessionSteps(session, pacer, (_indexed, row, found) => {
			requests.push(row);
			if (found !== undefined) {
				const usd = pricedRebuild(found, sessionBook).missedCost;
				rebuilds.push({ key: requestKey(row), at: Date.parse(row.entryTimestamp), usd: { low: usd, mid: usd, high: usd } });
			}
		});
		rows.push(sessionRowOf(session, rebuilds));
	}
	return { requests, sessions: rows };
}

/** A session's row of the history, with the rebuilds that may be copies (keyed). */
export function sessionRowOf(session: IndexedSessionInfo, rebuilds: readonly CostEventRow[]): SessionRow {
	const startedAt = Date.parse(session.started);
	return {
		session: session.path,
		id: session.id,
		project: session.project,
		startedAt: Number.isFinite(startedAt) ? startedAt : 0,
		...(session.parentSession === undefined ? {} : { parentSession: session.parentSession }),
		...(session.title === undefined ? {} : { title: session.title }),
		rebuilds,
		prunes: session.accounts?.prunes ?? [],
		...(session.accounts === undefined ? {} : { settings: session.accounts.settings }),
	};
}

/**
 * Walks a session's requests in file order as the file's reading does: each as a history row, with the
 * cache rebuild it paid for (Pi's rule over the requests, started afresh at each compaction or branch
 * summary), unpriced.
 */
export function* walkSessionSteps(session: IndexedSession, pacer: Pacer, visit: (indexed: IndexedRequest, row: RequestRow, found: FoundRebuild | undefined) => void): Steps<void> {
	const tracker = new RebuildTracker();
	let reset = 0;
	for (let index = 0; index < session.requests.length; index++) {
		if (pacer.due(1)) {
			yield;
		}
		const indexed = session.requests[index] as IndexedRequest;
		while (reset < session.resets.length && (session.resets[reset] as number) < indexed.line) {
			tracker.reset();
			reset++;
		}
		const point = pointOf(indexed, index);
		const row = requestRowOf(session.path, point);
		// A compaction's or branch summary's own line is a reset, counted above.
		const found = indexed.source === 'compaction' || indexed.source === 'branch_summary' ? undefined : tracker.request(point, modelKeyOf(point), []);
		visit(indexed, row, found);
	}
}

/** The history row of an indexed request (the key `requestKey` reads from it). */
export function indexedRequestRow(session: string, indexed: IndexedRequest): RequestRow {
	return requestRowOf(session, pointOf(indexed, 0));
}

function requestRowOf(session: string, point: RequestPoint): RequestRow {
	return { session, entryId: point.entryId, entryTimestamp: point.entryTimestamp, kind: point.kind, provider: point.provider, model: point.model, tokens: point.tokens, cost: point.cost };
}

/** The models these requests used without recording a cost (whose catalog prices price their rebuilds). */
export function unpricedModelsOf(requests: readonly IndexedRequest[]): string[] {
	const keys = new Set<string>();
	for (const request of requests) {
		const used = request.input + request.output + request.cacheRead + request.cacheWrite;
		// Named models only: the catalog knows no other (`pointOf` names replies' and usage entries' only).
		if ((request.source === 'assistant' || request.source === 'usage') && used > 0 && request.cost === 0 && request.provider && request.model) {
			keys.add(`${request.provider}/${request.model}`);
		}
	}
	return [...keys];
}

/**
 * The catalog's prices for the models this session used without recording a cost, as the session's
 * own reading (`pi-condense costs <session>`) looks prices up: only for those.
 */
export function unpricedOnly(unpriced: readonly string[], book: PriceBook): PriceBook {
	if (book.size === 0) {
		return book;
	}
	const kept = new Map<string, ModelPrice>();
	for (const key of unpriced) {
		const price = book.get(key);
		if (price !== undefined) {
			kept.set(key, price);
		}
	}
	return kept;
}

/** The request point `requestOf` reads from the same entry. */
function pointOf(row: IndexedRequest, index: number): RequestPoint {
	const kind = KIND_OF[row.source];
	// `requestOf` names the model of replies and `usage` entries only.
	const named = kind === 'reply' || kind === 'usage';
	const entryTime = row.entryTime ?? row.time;
	const tokens = { input: row.input, output: row.output, cacheRead: row.cacheRead, cacheWrite: row.cacheWrite, cacheWrite1h: undefined, totalTokens: row.totalTokens };
	return {
		index,
		entryIndex: -1,
		kind,
		usageKind: row.kind,
		entryId: row.entryId ?? '',
		entryTimestamp: entryTime === undefined ? '' : new Date(entryTime).toISOString(),
		at: row.time ?? entryTime ?? Number.NaN,
		provider: named ? row.provider ?? '' : '',
		model: named ? row.model ?? '' : '',
		tokens,
		cost: { input: row.costInput, output: row.costOutput, cacheRead: row.costCacheRead, cacheWrite: row.costCacheWrite, total: row.cost },
		contextTokens: tokens.input + tokens.cacheRead + tokens.cacheWrite,
	};
}

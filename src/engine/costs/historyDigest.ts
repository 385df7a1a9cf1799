/**
 * The history's costs from a digest of each session (`docs/performance.md`, "The session index"):
 * what the report needs of a session, worked out once from its indexed requests and kept in the index
 * until the file grows. Its requests summed per quarter hour (`usageBuckets.ts`), its cache rebuilds
 * as Pi's rule finds them (unpriced: the catalog's prices enter when the report is made), the models
 * it used without recording a cost, and a fingerprint of each request's key (`requestKey`).
 *
 * A request held by several files (a fork's or a copy's) counts once, in the session started first
 * (`history.ts`). Only requests whose fingerprint occurs more than once can be such copies: their rows
 * are read again (`copies`), compared by their whole key, and every copy but the owner's is taken out
 * of its session's buckets (the sums are exact, so taking out leaves no trace); the rebuilds they paid
 * are keyed as the file's reading keys them. Every other request and rebuild counts from the digest.
 * So the report equals the one of every row (`historyReport`) to the last digit. Pure.
 */
import { rebuildCost, type FoundRebuild } from './cacheRebuilds';
import type { CostEventRow, HistoryPart, RequestRow, SessionRow } from './history';
import { requestKey } from './history';
import { indexedRequestRow, sessionRowOf, unpricedModelsOf, unpricedOnly, walkSessionSteps, type IndexedRequest, type IndexedSession, type IndexedSessionInfo } from './indexedHistory';
import type { PriceBook } from './prices';
import { Pacer, type Steps } from '../steps';
import { BucketsBuilder, quarterOf, type UsageBucket, type UsageFigures } from './usageBuckets';

/** A cache rebuild as a digest keeps it: the line and time of the request that paid it, and Pi's figures before pricing. */
export interface DigestRebuild extends Pick<FoundRebuild, 'missedTokens' | 'paidPerToken' | 'readPerToken' | 'modelKey'> {
	readonly line: number;
	/** Epoch ms of its entry. */
	readonly at: number;
}

export interface SessionDigest {
	readonly buckets: readonly UsageBucket[];
	readonly rebuilds: readonly DigestRebuild[];
	/** `provider/model` of the models it used without recording a cost. */
	readonly unpriced: readonly string[];
}

/** A digest as it is worked out: with each request's line and the fingerprint of its key, in pairs (`[line, hash, …]`), kept beside it. */
export interface MadeDigest {
	readonly digest: SessionDigest;
	readonly fingerprints: Uint32Array;
}

/** A session as the index hands it to the report: what it keeps of it, and its digest. */
export interface DigestedSession {
	readonly info: IndexedSessionInfo;
	readonly digest: SessionDigest;
}

/** A session's digest, from its indexed requests and resets. */
export function* sessionDigestSteps(session: IndexedSession): Steps<MadeDigest> {
	const buckets = new BucketsBuilder();
	const rebuilds: DigestRebuild[] = [];
	const fingerprints = new Uint32Array(session.requests.length * 2);
	let next = 0;
	yield* walkSessionSteps(session, new Pacer(), (indexed, row, found) => {
		const at = Date.parse(row.entryTimestamp);
		buckets.add(at, row);
		fingerprints[next++] = indexed.line;
		fingerprints[next++] = fingerprintOf(requestKey(row));
		if (found !== undefined) {
			rebuilds.push({ line: indexed.line, at, missedTokens: found.missedTokens, paidPerToken: found.paidPerToken, readPerToken: found.readPerToken, modelKey: found.modelKey });
		}
	});
	return { digest: { buckets: buckets.done(), rebuilds, unpriced: unpricedModelsOf(session.requests) }, fingerprints };
}

/** FNV-1a (32 bits) of a key: equal keys, equal fingerprints; a shared fingerprint is only a candidate. */
function fingerprintOf(key: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < key.length; i++) {
		hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
	}
	return hash >>> 0;
}

/** Per session, the lines of its requests whose fingerprint occurs more than once in these sessions: the rows to read again. */
export function sharedRequestLines(fingerprints: readonly Uint32Array[]): number[][] {
	let total = 0;
	for (const prints of fingerprints) {
		total += prints.length / 2;
	}
	const hashes = new Uint32Array(total);
	let next = 0;
	for (const prints of fingerprints) {
		for (let i = 1; i < prints.length; i += 2) {
			hashes[next++] = prints[i] as number;
		}
	}
	hashes.sort();
	const shared = new Set<number>();
	// A bit per low 20 bits of a shared fingerprint: most requests are ruled out without the set.
	const bits = new Uint32Array(1 << 15);
	for (let i = 1; i < hashes.length; i++) {
		const hash = hashes[i] as number;
		if (hash === hashes[i - 1]) {
			shared.add(hash);
			bits[(hash & 0xfffff) >>> 5] = (bits[(hash & 0xfffff) >>> 5] as number) | (1 << (hash & 31));
		}
	}
	return fingerprints.map((prints) => {
		const lines: number[] = [];
		for (let i = 0; i < prints.length; i += 2) {
			const hash = prints[i + 1] as number;
			if (((bits[(hash & 0xfffff) >>> 5] as number) & (1 << (hash & 31))) !== 0 && shared.has(hash)) {
				lines.push(prints[i] as number);
			}
		}
		return lines;
	});
}

/** A request taken out of a session's buckets: another session (or an earlier line) owns it. */
export interface RemovedRequest extends UsageFigures {
	/** Epoch ms of its entry. */
	readonly at: number;
}

/** What the copies among the sessions' requests change in one session's part. */
export interface SessionCopies {
	/** The lines of its requests that several sessions hold, with a key per request (equal for the same request). */
	readonly keyed: readonly (readonly [line: number, key: number])[];
	/** The quarter hours that lost a copy (others' requests)… */
	readonly touched: readonly number[];
	/** …and its buckets of those quarter hours without the copies (a bucket left with no request is gone): kept, so a warm report sums nothing again. */
	readonly less: readonly UsageBucket[];
}

/**
 * Which candidate rows are copies: `copies[i]` are the rows of session i at its `sharedRequestLines`,
 * compared by their whole key (`requestKey`); the first of the best-ranked session owns each request.
 */
export function* copiesSteps(sessions: readonly DigestedSession[], copies: readonly (readonly IndexedRequest[])[]): Steps<SessionCopies[]> {
	const pacer = new Pacer();
	const rank = ownerRanks(sessions.map((session) => session.info));
	const byKey = new Map<string, { id: number; owner: { session: number; line: number }; count: number }>();
	const keyed: { session: number; line: number; key: string; row: RequestRow }[] = [];
	for (let session = 0; session < sessions.length; session++) {
		const path = (sessions[session] as DigestedSession).info.path;
		for (const indexed of copies[session] ?? []) {
			if (pacer.due(1)) {
				yield;
			}
			const row = indexedRequestRow(path, indexed);
			const key = requestKey(row);
			keyed.push({ session, line: indexed.line, key, row });
			const seen = byKey.get(key);
			if (seen === undefined) {
				byKey.set(key, { id: byKey.size, owner: { session, line: indexed.line }, count: 1 });
			} else {
				seen.count++;
				const better = (rank[session] as number) - (rank[seen.owner.session] as number) || indexed.line - seen.owner.line;
				if (better < 0) {
					seen.owner = { session, line: indexed.line };
				}
			}
		}
	}
	const outcome = sessions.map((): { removed: RemovedRequest[]; keyed: [number, number][] } => ({ removed: [], keyed: [] }));
	for (const { session, line, key, row } of keyed) {
		const group = byKey.get(key);
		const mine = outcome[session];
		if (group === undefined || group.count < 2 || mine === undefined) {
			continue;
		}
		// A short key per request: only rebuilds are compared with it, and only within this report.
		mine.keyed.push([line, group.id]);
		if (group.owner.session !== session || group.owner.line !== line) {
			mine.removed.push({ at: Date.parse(row.entryTimestamp), tokens: row.tokens, cost: row.cost });
		}
	}
	const result: SessionCopies[] = [];
	for (let session = 0; session < sessions.length; session++) {
		if (pacer.due(1)) {
			yield;
		}
		const { removed, keyed: mine } = outcome[session] as (typeof outcome)[number];
		result.push({ keyed: mine, ...bucketsLess((sessions[session] as DigestedSession).digest.buckets, removed) });
	}
	return result;
}

/** Each session's part of the history: its digest, less the copies it holds (`copiesSteps`). */
export function* digestedHistorySteps(sessions: readonly DigestedSession[], copies: readonly SessionCopies[], book: PriceBook): Steps<HistoryPart[]> {
	const pacer = new Pacer();
	const parts: HistoryPart[] = [];
	for (let session = 0; session < sessions.length; session++) {
		if (pacer.due(1)) {
			yield;
		}
		const { info, digest } = sessions[session] as DigestedSession;
		const mine = copies[session];
		const keyOfLine = new Map(mine?.keyed ?? []);
		const sessionBook = unpricedOnly(digest.unpriced, book);
		const keyedRebuilds: CostEventRow[] = [];
		const ownRebuilds: { at: number; usd: number }[] = [];
		for (const rebuild of digest.rebuilds) {
			const usd = rebuildCost(rebuild, sessionBook);
			const key = keyOfLine.get(rebuild.line);
			if (key === undefined) {
				ownRebuilds.push({ at: rebuild.at, usd });
			} else {
				keyedRebuilds.push({ key: `${key}`, at: rebuild.at, usd: { low: usd, mid: usd, high: usd } });
			}
		}
		parts.push({ row: sessionRowOf(info, keyedRebuilds), buckets: withCopiesOut(digest.buckets, mine), ownRebuilds });
	}
	return parts;
}

/** The quarter hours of `buckets` that lose a copy, and their buckets without the copies. */
function bucketsLess(buckets: readonly UsageBucket[], removed: readonly RemovedRequest[]): Pick<SessionCopies, 'touched' | 'less'> {
	if (removed.length === 0) {
		return { touched: [], less: [] };
	}
	const touched = new Set(removed.map(({ at }) => quarterOf(at)));
	const builder = new BucketsBuilder(buckets.filter((bucket) => touched.has(bucket.quarter)));
	for (const request of removed) {
		builder.add(request.at, request, -1);
	}
	return { touched: [...touched], less: builder.done() };
}

/** A session's buckets with the copies it holds taken out (`copiesSteps` summed them once). */
function withCopiesOut(buckets: readonly UsageBucket[], copies: SessionCopies | undefined): readonly UsageBucket[] {
	if (copies === undefined || copies.touched.length === 0) {
		return buckets;
	}
	const touched = new Set(copies.touched);
	return [...buckets.filter((bucket) => !touched.has(bucket.quarter)), ...copies.less];
}

/** Each session's rank in the order that decides who owns a shared request: started first, then by path (`history.ts`). */
function ownerRanks(sessions: readonly IndexedSessionInfo[]): number[] {
	const rows: Pick<SessionRow, 'session' | 'startedAt'>[] = sessions.map((info) => {
		const startedAt = Date.parse(info.started);
		return { session: info.path, startedAt: Number.isFinite(startedAt) ? startedAt : 0 };
	});
	const order = rows.map((_row, index) => index).sort((a, b) => {
		const x = rows[a] as (typeof rows)[number];
		const y = rows[b] as (typeof rows)[number];
		return x.startedAt - y.startedAt || (x.session < y.session ? -1 : x.session > y.session ? 1 : 0);
	});
	const rank = new Array<number>(sessions.length);
	order.forEach((session, position) => {
		rank[session] = position;
	});
	return rank;
}

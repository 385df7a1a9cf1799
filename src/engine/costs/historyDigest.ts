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
import { pricedRebuild, type FoundRebuild } from './cacheRebuilds';
import type { CostEventRow, HistoryPart, RequestRow, SessionRow } from './history';
import { requestKey } from './history';
import { indexedRequestRow, sessionRowOf, unpricedModelsOf, unpricedOnly, walkSessionSteps, type IndexedRequest, type IndexedSession, type IndexedSessionInfo } from './indexedHistory';
import type { PriceBook } from './prices';
import { Pacer, type Steps } from '../steps';
import { BucketsBuilder, type UsageBucket } from './usageBuckets';

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
	/** Each request's line and the fingerprint of its key, in pairs: `[line, hash, line, hash, …]`. */
	readonly fingerprints: Uint32Array;
}

/** A session as the index hands it to the report: what it keeps of it, and its digest. */
export interface DigestedSession {
	readonly info: IndexedSessionInfo;
	readonly digest: SessionDigest;
}

/** A session's digest, from its indexed requests and resets. */
export function* sessionDigestSteps(session: IndexedSession): Steps<SessionDigest> {
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
	return { buckets: buckets.done(), rebuilds, unpriced: unpricedModelsOf(session.requests), fingerprints };
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
export function sharedRequestLines(digests: readonly SessionDigest[]): number[][] {
	let total = 0;
	for (const digest of digests) {
		total += digest.fingerprints.length / 2;
	}
	const hashes = new Uint32Array(total);
	let next = 0;
	for (const digest of digests) {
		for (let i = 1; i < digest.fingerprints.length; i += 2) {
			hashes[next++] = digest.fingerprints[i] as number;
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
	return digests.map((digest) => {
		const lines: number[] = [];
		const prints = digest.fingerprints;
		for (let i = 0; i < prints.length; i += 2) {
			const hash = prints[i + 1] as number;
			if (((bits[(hash & 0xfffff) >>> 5] as number) & (1 << (hash & 31))) !== 0 && shared.has(hash)) {
				lines.push(prints[i] as number);
			}
		}
		return lines;
	});
}

/**
 * Each session's part of the history: its digest, less the copies it holds of requests another session
 * (or an earlier line of its own) owns. `copies[i]`: the rows of session i at `sharedRequestLines`.
 */
export function* digestedHistorySteps(sessions: readonly DigestedSession[], copies: readonly (readonly IndexedRequest[])[], book: PriceBook): Steps<HistoryPart[]> {
	const pacer = new Pacer();
	const rank = ownerRanks(sessions);
	// Every candidate row by its key: the first of the best-ranked session owns it.
	const byKey = new Map<string, { owner: { session: number; line: number }; count: number }>();
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
				byKey.set(key, { owner: { session, line: indexed.line }, count: 1 });
			} else {
				seen.count++;
				const better = (rank[session] as number) - (rank[seen.owner.session] as number) || indexed.line - seen.owner.line;
				if (better < 0) {
					seen.owner = { session, line: indexed.line };
				}
			}
		}
	}
	// The copies taken out, and the keys of the rebuilds that may be copies, per session.
	const removed = sessions.map((): { at: number; row: RequestRow }[] => []);
	const keyOfLine = sessions.map(() => new Map<number, string>());
	for (const { session, line, key, row } of keyed) {
		const group = byKey.get(key);
		if (group === undefined || group.count < 2) {
			continue;
		}
		keyOfLine[session]?.set(line, key);
		if (group.owner.session !== session || group.owner.line !== line) {
			removed[session]?.push({ at: Date.parse(row.entryTimestamp), row });
		}
	}
	const parts: HistoryPart[] = [];
	for (let session = 0; session < sessions.length; session++) {
		if (pacer.due(1)) {
			yield;
		}
		const { info, digest } = sessions[session] as DigestedSession;
		const sessionBook = unpricedOnly(digest.unpriced, book);
		const keyedRebuilds: CostEventRow[] = [];
		const ownRebuilds: { at: number; usd: number }[] = [];
		for (const rebuild of digest.rebuilds) {
			const usd = pricedRebuild({ ...rebuild, request: 0, idleMs: 0, cause: 'unexplained' }, sessionBook).missedCost;
			const key = keyOfLine[session]?.get(rebuild.line);
			if (key === undefined) {
				ownRebuilds.push({ at: rebuild.at, usd });
			} else {
				keyedRebuilds.push({ key, at: rebuild.at, usd: { low: usd, mid: usd, high: usd } });
			}
		}
		parts.push({ row: sessionRowOf(info, keyedRebuilds), buckets: bucketsLess(digest.buckets, removed[session] ?? []), ownRebuilds });
	}
	return parts;
}

function bucketsLess(buckets: readonly UsageBucket[], removed: readonly { at: number; row: RequestRow }[]): readonly UsageBucket[] {
	if (removed.length === 0) {
		return buckets;
	}
	const builder = new BucketsBuilder(buckets);
	for (const { at, row } of removed) {
		builder.add(at, row, -1);
	}
	return builder.done();
}

/** Each session's rank in the order that decides who owns a shared request: started first, then by path (`history.ts`). */
function ownerRanks(sessions: readonly DigestedSession[]): number[] {
	const rows: Pick<SessionRow, 'session' | 'startedAt'>[] = sessions.map(({ info }) => {
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

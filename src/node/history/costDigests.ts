/**
 * Each session's cost digest in the index (`costs_digests`, `historyDigest.ts`): worked out from its
 * usage rows once, kept with the bytes the index had read of the file then, and used while the file
 * is read no further. Synchronous: called inside one locked transaction by `IndexDatabase`.
 */
import type { DigestRebuild, IndexedRequest, IndexedSession, IndexedSessionInfo, MadeDigest, RemovedRequest, SessionCopies, SessionDigest, UsageBucket } from '../../engine/costs';
import { isPlainObject } from '../../base/plainObject';
import { accountsOf, requestOf, resetLinesOf, rootsWhere, SESSION_COLUMNS, USAGE_COLUMNS, sessionInfoOf } from './historyCosts';
import type { SqlDatabase, SqlValue } from './sqlite/sqlDatabase';

/** A listed session and its digest as kept (undefined: none for the file as it is, or unreadable), with the digest's generation. */
export interface StoredDigest {
	readonly sid: number;
	readonly info: IndexedSessionInfo;
	readonly digest: SessionDigest | undefined;
	/** Raised each time any digest is kept: the copies among sessions are worked out again when one changed. */
	readonly made: number;
}

/** Listed sessions under `roots` whose digest is missing or older than what the index has read of the file. */
export function staleDigestsOf(db: SqlDatabase, roots: readonly string[]): number[] {
	return db.prepare(`SELECT s.sid FROM sessions s LEFT JOIN costs_digests d ON d.sid = s.sid WHERE ${rootsWhere(roots)} AND (d.sid IS NULL OR d.consumed != s.consumed) ORDER BY s.sid`)
		.all(roots).map((row) => Number(row['sid']));
}

/** Sessions `sids` with their requests and resets, and the bytes the index has read of each. */
export function sessionsToDigest(db: SqlDatabase, sids: readonly number[]): { readonly sid: number; readonly consumed: number; readonly session: IndexedSession }[] {
	return sids.flatMap((sid) => {
		const row = db.prepare(`SELECT ${SESSION_COLUMNS}, s.consumed FROM sessions s WHERE s.sid = ?`).get([sid]);
		if (row === undefined) {
			return [];
		}
		const requests = db.prepare(`SELECT ${USAGE_COLUMNS} FROM usage u LEFT JOIN models m ON m.model_id = u.model_id WHERE u.sid = ? ORDER BY u.line`).all([sid]).map(requestOf);
		const resets = resetLinesOf(db.prepare("SELECT e.line FROM events e WHERE e.sid = ? AND e.custom_type = '' ORDER BY e.line").all([sid]));
		return [{ sid, consumed: Number(row['consumed']), session: { ...sessionInfoOf(row, undefined), requests, resets } }];
	});
}

/** Keeps a digest worked out from the first `consumed` bytes (unless the index has read the file further since). */
export function storeDigestOf(db: SqlDatabase, sid: number, consumed: number, { digest, fingerprints }: MadeDigest): void {
	db.prepare(`INSERT OR REPLACE INTO costs_digests (sid, consumed, made, digest, fingerprints)
		SELECT sid, ?, (SELECT coalesce(max(made), 0) + 1 FROM costs_digests), ?, ? FROM sessions WHERE sid = ? AND consumed = ?`)
		.run([consumed, digestText(digest), new Uint8Array(fingerprints.buffer, fingerprints.byteOffset, fingerprints.byteLength), sid, consumed]);
}

/** The request fingerprints of sessions `sids` (`[line, hash, …]`), in that order; empty for one without a digest. */
export function fingerprintsOf(db: SqlDatabase, roots: readonly string[], sids: readonly number[]): Uint32Array[] {
	const bySid = new Map(db.prepare(`SELECT d.sid, d.fingerprints FROM sessions s JOIN costs_digests d ON d.sid = s.sid WHERE ${rootsWhere(roots)}`).all(roots)
		.map((row) => [Number(row['sid']), row['fingerprints']] as const));
	return sids.map((sid) => {
		const blob = bySid.get(sid);
		return blob instanceof Uint8Array && blob.byteLength % 8 === 0 ? new Uint32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength)) : new Uint32Array(0);
	});
}

/** The copies among the sessions under `roots` as last worked out, if they were worked out from the digests `basis` names. */
export function storedCopiesOf(db: SqlDatabase, rootsKey: string, basis: string): SessionCopies[] | undefined {
	const row = db.prepare('SELECT basis, copies FROM costs_copies WHERE roots = ?').get([rootsKey]);
	return row !== undefined && row['basis'] === basis ? copiesOf(row['copies']) : undefined;
}

export function storeCopiesOf(db: SqlDatabase, rootsKey: string, basis: string, copies: readonly SessionCopies[]): void {
	const text = JSON.stringify(copies.map((session) => [
		session.removed.map(({ at, tokens, cost }) => [Number.isFinite(at) ? at : null, tokens.input, tokens.output, tokens.cacheRead, tokens.cacheWrite, cost.total, cost.input, cost.output, cost.cacheRead, cost.cacheWrite]),
		session.keyed,
	]));
	db.prepare('INSERT OR REPLACE INTO costs_copies (roots, basis, copies) VALUES (?, ?, ?)').run([rootsKey, basis, text]);
}

/** Every listed session under `roots`, in index order, with its digest when it is current. */
export function storedDigestsOf(db: SqlDatabase, roots: readonly string[]): StoredDigest[] {
	const accounts = new Map(db.prepare(`SELECT a.sid, a.prunes, a.settings FROM sessions s JOIN costs_accounts a ON a.sid = s.sid WHERE ${rootsWhere(roots)}`).all(roots)
		.map((row) => [Number(row['sid']), accountsOf(row)] as const));
	return db.prepare(`SELECT ${SESSION_COLUMNS}, s.consumed, d.consumed AS digested, d.made, d.digest FROM sessions s LEFT JOIN costs_digests d ON d.sid = s.sid
		WHERE ${rootsWhere(roots)} ORDER BY s.sid`).all(roots).map((row) => {
		const sid = Number(row['sid']);
		const current = row['digested'] !== null && Number(row['digested']) === Number(row['consumed']);
		return { sid, info: sessionInfoOf(row, accounts.get(sid)), digest: current ? digestOf(row['digest']) : undefined, made: Number(row['made'] ?? -1) };
	});
}

/** The requests at `lines[i]` of session `sids[i]`, per session, in file order: one statement for all. */
export function requestsAt(db: SqlDatabase, sids: readonly number[], lines: readonly (readonly number[])[]): IndexedRequest[][] {
	const wanted = sids.flatMap((sid, i) => (lines[i] ?? []).map((line) => [sid, line]));
	const found = new Map<number, IndexedRequest[]>();
	const rows = db.prepare(`SELECT ${USAGE_COLUMNS} FROM json_each(?) j JOIN usage u ON u.sid = json_extract(j.value, '$[0]') AND u.line = json_extract(j.value, '$[1]')
		LEFT JOIN models m ON m.model_id = u.model_id`).all([JSON.stringify(wanted)]);
	for (const row of rows) {
		const sid = Number(row['sid']);
		let list = found.get(sid);
		if (list === undefined) {
			list = [];
			found.set(sid, list);
		}
		list.push(requestOf(row));
	}
	return sids.map((sid) => (found.get(sid) ?? []).sort((a, b) => a.line - b.line));
}

/** A digest as JSON: buckets as arrays, rebuilds as columns (an unknown time or read price is null). */
function digestText(digest: SessionDigest): string {
	const orNull = (value: number | undefined): number | null => (value === undefined || !Number.isFinite(value) ? null : value);
	return JSON.stringify({
		buckets: digest.buckets.map((b) => [orNull(b.quarter), b.requests, b.input, b.output, b.cacheRead, b.cacheWrite, ...b.costs]),
		rebuilds: {
			line: digest.rebuilds.map((r) => r.line), at: digest.rebuilds.map((r) => orNull(r.at)), missed: digest.rebuilds.map((r) => r.missedTokens),
			paid: digest.rebuilds.map((r) => r.paidPerToken), read: digest.rebuilds.map((r) => orNull(r.readPerToken)), model: digest.rebuilds.map((r) => r.modelKey),
		},
		unpriced: digest.unpriced,
	});
}

/** A kept digest, read defensively (the index file is ours, but may be damaged by hand): undefined when it does not read. */
function digestOf(text: SqlValue | undefined): SessionDigest | undefined {
	if (typeof text !== 'string') {
		return undefined;
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return undefined;
	}
	if (!isPlainObject(value) || !Array.isArray(value['buckets']) || !isPlainObject(value['rebuilds']) || !Array.isArray(value['unpriced'])) {
		return undefined;
	}
	const buckets = value['buckets'].map(bucketOf);
	const rebuilds = rebuildsOf(value['rebuilds']);
	const unpriced = value['unpriced'].filter((key): key is string => typeof key === 'string');
	if (buckets.some((bucket) => bucket === undefined) || rebuilds === undefined) {
		return undefined;
	}
	return { buckets: buckets as UsageBucket[], rebuilds, unpriced };
}

const isNumber = (item: unknown): item is number => typeof item === 'number' && Number.isFinite(item);
const isNumbers = (item: unknown): item is number[] => Array.isArray(item) && item.every(isNumber);

function bucketOf(item: unknown): UsageBucket | undefined {
	if (!Array.isArray(item) || item.length !== 11 || !(item[0] === null || isNumber(item[0])) || !item.slice(1, 6).every(isNumber) || !item.slice(6).every(isNumbers)) {
		return undefined;
	}
	const [quarter, requests, input, output, cacheRead, cacheWrite, ...costs] = item as [number | null, number, number, number, number, number, ...number[][]];
	return { quarter: quarter ?? Number.NaN, requests, input, output, cacheRead, cacheWrite, costs: costs as unknown as UsageBucket['costs'] };
}

function rebuildsOf(columns: Record<string, unknown>): DigestRebuild[] | undefined {
	const { line, at, missed, paid, read, model } = columns;
	const nullable = (item: unknown): item is (number | null)[] => Array.isArray(item) && item.every((value) => value === null || isNumber(value));
	if (!isNumbers(line) || !nullable(at) || !isNumbers(missed) || !isNumbers(paid) || !nullable(read) || !Array.isArray(model) || !model.every((key) => typeof key === 'string')) {
		return undefined;
	}
	if (![at, missed, paid, read, model].every((column) => column.length === line.length)) {
		return undefined;
	}
	return line.map((lineOf, i) => ({
		line: lineOf, at: at[i] ?? Number.NaN, missedTokens: missed[i] as number, paidPerToken: paid[i] as number,
		readPerToken: read[i] ?? undefined, modelKey: model[i] as string,
	}));
}

/** Kept copies, read defensively: undefined when they do not read (they are worked out again). */
function copiesOf(text: SqlValue | undefined): SessionCopies[] | undefined {
	let value: unknown;
	try {
		value = JSON.parse(String(text));
	} catch {
		return undefined;
	}
	if (!Array.isArray(value)) {
		return undefined;
	}
	const sessions: SessionCopies[] = [];
	for (const item of value) {
		if (!Array.isArray(item) || item.length !== 2 || !Array.isArray(item[0]) || !Array.isArray(item[1])) {
			return undefined;
		}
		const removed: RemovedRequest[] = [];
		for (const request of item[0] as unknown[]) {
			if (!Array.isArray(request) || request.length !== 10 || !(request[0] === null || isNumber(request[0])) || !request.slice(1).every(isNumber)) {
				return undefined;
			}
			const [at, input, output, cacheRead, cacheWrite, total, costInput, costOutput, costCacheRead, costCacheWrite] = request as [number | null, ...number[]] as [number | null, number, number, number, number, number, number, number, number, number];
			removed.push({ at: at ?? Number.NaN, tokens: { input, output, cacheRead, cacheWrite }, cost: { total, input: costInput, output: costOutput, cacheRead: costCacheRead, cacheWrite: costCacheWrite } });
		}
		const keyed = item[1] as unknown[];
		if (!keyed.every((pair) => Array.isArray(pair) && pair.length === 2 && isNumber(pair[0]) && typeof pair[1] === 'string')) {
			return undefined;
		}
		sessions.push({ removed, keyed: keyed as [number, string][] });
	}
	return sessions;
}

/**
 * Each session's cost digest in the index (`costs_digests`, `historyDigest.ts`): worked out from its
 * usage rows once, kept with the bytes the index had read of the file then, and used while the file
 * is read no further. Synchronous: called inside one locked transaction by `IndexDatabase`.
 */
import type { IndexedRequest, IndexedSession, IndexedSessionInfo, MadeDigest, SessionCopies, SessionDigest } from '../../engine/costs';
import { copiesBlob, copiesOfBlob, digestBlob, digestOfBlob, fingerprintsBlob, fingerprintsOfBlob } from './digestCodec';
import { accountsOf, requestOf, resetLinesOf, rootsWhere, SESSION_COLUMNS, USAGE_COLUMNS, sessionInfoOf } from './historyCosts';
import type { SqlDatabase } from './sqlite/sqlDatabase';

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
		.run([consumed, digestBlob(digest), fingerprintsBlob(fingerprints), sid, consumed]);
}

/** The request fingerprints of sessions `sids` (`[line, hash, …]`), in that order; empty for one without a digest. */
export function fingerprintsOf(db: SqlDatabase, roots: readonly string[], sids: readonly number[]): Uint32Array[] {
	const bySid = new Map(db.prepare(`SELECT d.sid, d.fingerprints FROM sessions s JOIN costs_digests d ON d.sid = s.sid WHERE ${rootsWhere(roots)}`).all(roots)
		.map((row) => [Number(row['sid']), row['fingerprints']] as const));
	return sids.map((sid) => fingerprintsOfBlob(bySid.get(sid)));
}

/** The copies among the sessions under `roots` as last worked out, if they were worked out from the digests `basis` names. */
export function storedCopiesOf(db: SqlDatabase, rootsKey: string, basis: string): SessionCopies[] | undefined {
	const row = db.prepare('SELECT basis, copies FROM costs_copies WHERE roots = ?').get([rootsKey]);
	return row !== undefined && row['basis'] === basis ? copiesOfBlob(row['copies']) : undefined;
}

export function storeCopiesOf(db: SqlDatabase, rootsKey: string, basis: string, copies: readonly SessionCopies[]): void {
	db.prepare('INSERT OR REPLACE INTO costs_copies (roots, basis, copies) VALUES (?, ?, ?)').run([rootsKey, basis, copiesBlob(copies)]);
}

/** Every listed session under `roots`, in index order, with its digest when it is current. */
export function storedDigestsOf(db: SqlDatabase, roots: readonly string[]): StoredDigest[] {
	const accounts = new Map(db.prepare(`SELECT a.sid, a.prunes, a.settings FROM sessions s JOIN costs_accounts a ON a.sid = s.sid WHERE ${rootsWhere(roots)}`).all(roots)
		.map((row) => [Number(row['sid']), accountsOf(row)] as const));
	return db.prepare(`SELECT ${SESSION_COLUMNS}, s.consumed, d.consumed AS digested, d.made, d.digest FROM sessions s LEFT JOIN costs_digests d ON d.sid = s.sid
		WHERE ${rootsWhere(roots)} ORDER BY s.sid`).all(roots).map((row) => {
		const sid = Number(row['sid']);
		const current = row['digested'] !== null && Number(row['digested']) === Number(row['consumed']);
		return { sid, info: sessionInfoOf(row, accounts.get(sid)), digest: current ? digestOfBlob(row['digest']) : undefined, made: Number(row['made'] ?? -1) };
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

/**
 * What the history's costs need of the index (`HistoryIndex.costHistory`): each listed session's
 * cost digest, worked out first for the sessions whose digest is missing or older than the file, and
 * the copies among their requests (`copiesSteps`), kept for the set of digests they were worked out
 * from: a warm report reads the digests and the kept copies, nothing else.
 */
import { createHash } from 'node:crypto';
import { copiesSteps, sessionDigestSteps, sharedRequestLines, type DigestedSession, type MadeDigest, type SessionCopies } from '../../engine/costs';
import type { Steps } from '../../engine/steps';
import { fingerprintsOf, requestsAt, sessionsToDigest, staleDigestsOf, storeCopiesOf, storedCopiesOf, storedDigestsOf, storeDigestOf } from './costDigests';
import type { IndexDatabase } from './indexDatabase';

/** What `costHistory` reads: each session's digest, and what the copies among their requests change in each. */
export interface DigestedHistory {
	readonly sessions: readonly DigestedSession[];
	readonly copies: readonly SessionCopies[];
}

type Run = <T>(steps: Steps<T>, signal?: AbortSignal) => Promise<T>;

/** Sessions whose digests one write keeps (each worked out from its rows, in slices, before it). */
const DIGESTS_PER_WRITE = 50;

export async function readCostHistory(database: IndexDatabase, run: Run, roots: readonly string[], signal?: AbortSignal): Promise<DigestedHistory> {
	const stale = await database.read((db) => staleDigestsOf(db, roots));
	for (let start = 0; start < stale.length; start += DIGESTS_PER_WRITE) {
		const batch = await database.read((db) => sessionsToDigest(db, stale.slice(start, start + DIGESTS_PER_WRITE)));
		const made: { sid: number; consumed: number; digest: MadeDigest }[] = [];
		for (const { sid, consumed, session } of batch) {
			made.push({ sid, consumed, digest: await run(sessionDigestSteps(session), signal) });
		}
		await database.write((db) => {
			for (const { sid, consumed, digest } of made) {
				storeDigestOf(db, sid, consumed, digest);
			}
		});
	}
	const stored = await database.read((db) => {
		const rows = storedDigestsOf(db, roots);
		// A file read further since (another process) or a digest that does not read: worked out again here.
		return { rows, raw: new Map(sessionsToDigest(db, rows.filter((row) => row.digest === undefined).map((row) => row.sid)).map((item) => [item.sid, item])) };
	});
	const sessions: DigestedSession[] = [];
	const sids: number[] = [];
	const unkept = new Map<number, MadeDigest>();
	for (const row of stored.rows) {
		const raw = stored.raw.get(row.sid);
		const made = row.digest === undefined && raw !== undefined ? await run(sessionDigestSteps(raw.session), signal) : undefined;
		const digest = row.digest ?? made?.digest;
		if (digest !== undefined) {
			sessions.push({ info: row.info, digest });
			sids.push(row.sid);
		}
		if (made !== undefined) {
			unkept.set(row.sid, made);
		}
	}
	if (unkept.size > 0) {
		// Kept in place of one that did not read (damaged); one of bytes the index has read further since is not (`storeDigestOf`).
		await database.write((db) => {
			for (const [sid, made] of unkept) {
				const raw = stored.raw.get(sid);
				if (raw !== undefined) {
					storeDigestOf(db, sid, raw.consumed, made);
				}
			}
		});
	}
	const rootsKey = JSON.stringify(roots);
	const basis = createHash('sha256').update(JSON.stringify(stored.rows.map((row) => [row.sid, row.made, row.info.path, row.info.started]))).digest('hex');
	const kept = unkept.size === 0 ? await database.read((db) => storedCopiesOf(db, rootsKey, basis)) : undefined;
	if (kept !== undefined && kept.length === sessions.length) {
		return { sessions, copies: kept };
	}
	const fingerprints = await database.read((db) => fingerprintsOf(db, roots, sids));
	const shared = sharedRequestLines(sids.map((sid, i) => unkept.get(sid)?.fingerprints ?? (fingerprints[i] as Uint32Array)));
	const rows = await database.read((db) => requestsAt(db, sids, shared));
	const copies = await run(copiesSteps(sessions, rows), signal);
	if (unkept.size === 0) {
		await database.write((db) => storeCopiesOf(db, rootsKey, basis, copies));
	}
	return { sessions, copies };
}

/**
 * What the costs of the whole history read from the session index (`docs/costs.md`, "Across
 * sessions"): each listed session's requests (`usage`, in file order), the lines where Pi's
 * compactions and branch summaries started its context afresh (`events` with no custom type), and
 * its prunes' accounts (`costs_accounts`), which only a reading of the file can work out: the
 * sessions whose accounts are missing or older than their file are listed, and an account worked
 * out is kept. Synchronous: called inside one locked transaction by `IndexDatabase`.
 */
import type { CostEventRow, IndexedRequest, IndexedSession, IndexedSessionInfo, IndexedSource, ObservedSettings, StoredAccounts } from '../../engine/costs';
import { isPlainObject } from '../../base/plainObject';
import { costOfParts, tokensOfParts, USAGE_SOURCES } from './indexSchema';
import { inList, type SqlDatabase, type SqlRow, type SqlValue } from './sqlite/sqlDatabase';

/** A session with pi-condense entries whose prunes have no account for its file as it is (or for these settings). */
export interface AccountsDue {
	readonly path: string;
	/** The header's `cwd`: the project whose release and settings render it. */
	readonly project: string;
	/** The bytes the index has read of it: what an account worked out now covers (at least). */
	readonly consumed: number;
}

const num = (value: SqlValue | undefined): number => (typeof value === 'number' ? value : Number(value ?? 0));
const text = (value: SqlValue | undefined): string | undefined => (typeof value === 'string' ? value : undefined);
const time = (value: SqlValue | undefined): number | undefined => (value === null || value === undefined ? undefined : Number(value));

export function rootsWhere(roots: readonly string[]): string {
	return `s.root IN ${inList(roots)} AND s.unlisted IS NULL AND s.id IS NOT NULL`;
}

/** What a session row gives of the session (`sessionInfoOf`). */
export const SESSION_COLUMNS = 's.sid, s.path, s.id, s.cwd, s.started, s.parent_session, s.name';

/** What a usage row gives of a request (`requestOf`), from `usage u LEFT JOIN models m`. */
export const USAGE_COLUMNS = `u.sid, u.line, u.entry_id, u.source, u.kind, m.provider, m.model, u.time, u.entry_time, u.input, u.output, u.cache_read,
	u.cache_write, u.total_tokens, u.cost, u.cost_input, u.cost_output, u.cost_cache_read, u.cost_cache_write`;

/** Every listed session under `roots`, with its requests, resets and stored accounts. */
export function indexedSessionsOf(db: SqlDatabase, roots: readonly string[]): IndexedSession[] {
	const where = rootsWhere(roots);
	const requests = groupBySid(db.prepare(`SELECT ${USAGE_COLUMNS}
		FROM sessions s JOIN usage u ON u.sid = s.sid LEFT JOIN models m ON m.model_id = u.model_id WHERE ${where} ORDER BY u.sid, u.line`).all(roots), requestOf);
	const resets = groupBySid(db.prepare(`SELECT e.sid, e.line FROM sessions s JOIN events e ON e.sid = s.sid WHERE ${where} AND e.custom_type = '' ORDER BY e.sid, e.line`).all(roots), (row) => num(row['line']));
	const accounts = new Map(db.prepare(`SELECT a.sid, a.prunes, a.settings FROM sessions s JOIN costs_accounts a ON a.sid = s.sid WHERE ${where}`).all(roots)
		.map((row) => [num(row['sid']), accountsOf(row)] as const));
	return db.prepare(`SELECT ${SESSION_COLUMNS} FROM sessions s WHERE ${where} ORDER BY s.sid`).all(roots).map((row): IndexedSession => {
		const sid = num(row['sid']);
		return { ...sessionInfoOf(row, accounts.get(sid)), requests: requests.get(sid) ?? [], resets: resets.get(sid) ?? [] };
	});
}

/** A session's info from a row of `SESSION_COLUMNS`. */
export function sessionInfoOf(row: SqlRow, accounts: StoredAccounts | undefined): IndexedSessionInfo {
	const parentSession = text(row['parent_session']);
	const title = text(row['name']);
	return {
		path: String(row['path']),
		id: String(row['id']),
		project: text(row['cwd']) ?? '',
		started: text(row['started']) ?? '',
		...(parentSession === undefined ? {} : { parentSession }),
		...(title === undefined ? {} : { title }),
		...(accounts === undefined ? {} : { accounts }),
	};
}

/** The lines of rows of `events` (a session's resets). */
export function resetLinesOf(rows: readonly SqlRow[]): number[] {
	return rows.map((row) => num(row['line']));
}

/**
 * The sessions under `roots` with pi-condense entries whose stored account is missing, older than the
 * file, or of another basis than `basisOf` says (undefined: any basis will do).
 */
export function accountsDueOf(db: SqlDatabase, roots: readonly string[], basisOf: (project: string) => string | undefined): AccountsDue[] {
	const rows = db.prepare(`SELECT s.path, s.cwd, s.consumed, a.consumed AS accounted, a.basis FROM sessions s LEFT JOIN costs_accounts a ON a.sid = s.sid
		WHERE ${rootsWhere(roots)} AND EXISTS (SELECT 1 FROM events e WHERE e.sid = s.sid AND e.custom_type LIKE 'context-prune-%') ORDER BY s.sid`).all(roots);
	return rows
		.filter((row) => {
			const basis = basisOf(text(row['cwd']) ?? '');
			return row['accounted'] === null || num(row['accounted']) !== num(row['consumed']) || (basis !== undefined && row['basis'] !== basis);
		})
		.map((row) => ({ path: String(row['path']), project: text(row['cwd']) ?? '', consumed: num(row['consumed']) }));
}

/** Keeps a session's accounts, worked out from its first `consumed` bytes with `basis`; false when the index does not hold the file. */
export function storeAccountsOf(db: SqlDatabase, path: string, consumed: number, basis: string, accounts: StoredAccounts): boolean {
	const prunes = accounts.prunes.map((prune) => ({ key: prune.key, at: prune.at, low: prune.usd.low, mid: prune.usd.mid, high: prune.usd.high }));
	const row = db.prepare(`INSERT OR REPLACE INTO costs_accounts (sid, consumed, basis, prunes, settings)
		SELECT sid, ?, ?, ?, ? FROM sessions WHERE path = ? RETURNING sid`).get([consumed, basis, JSON.stringify(prunes), JSON.stringify(accounts.settings), path]);
	return row !== undefined;
}

function groupBySid<T>(rows: readonly SqlRow[], read: (row: SqlRow) => T): Map<number, T[]> {
	const groups = new Map<number, T[]>();
	let sid = Number.NaN;
	let group: T[] = [];
	for (const row of rows) {
		const next = num(row['sid']);
		if (next !== sid) {
			sid = next;
			group = [];
			groups.set(sid, group);
		}
		group.push(read(row));
	}
	return groups;
}

export function requestOf(row: SqlRow): IndexedRequest {
	const parts = {
		input: num(row['input']),
		output: num(row['output']),
		cacheRead: num(row['cache_read']),
		cacheWrite: num(row['cache_write']),
		costInput: num(row['cost_input']),
		costOutput: num(row['cost_output']),
		costCacheRead: num(row['cost_cache_read']),
		costCacheWrite: num(row['cost_cache_write']),
	};
	return {
		line: num(row['line']),
		entryId: text(row['entry_id']),
		source: (USAGE_SOURCES[num(row['source'])] ?? 'assistant') satisfies IndexedSource,
		kind: text(row['kind']),
		provider: text(row['provider']),
		model: text(row['model']),
		time: time(row['time']),
		entryTime: time(row['entry_time']),
		input: parts.input,
		output: parts.output,
		cacheRead: parts.cacheRead,
		cacheWrite: parts.cacheWrite,
		totalTokens: row['total_tokens'] === null ? tokensOfParts(parts) : num(row['total_tokens']),
		cost: row['cost'] === null ? costOfParts(parts) : num(row['cost']),
		costInput: parts.costInput,
		costOutput: parts.costOutput,
		costCacheRead: parts.costCacheRead,
		costCacheWrite: parts.costCacheWrite,
	};
}

/** A stored account, read defensively (the index file is ours, but may be older or damaged by hand). */
export function accountsOf(row: SqlRow): StoredAccounts {
	const prunes: CostEventRow[] = [];
	for (const item of parsed(row['prunes'])) {
		if (isPlainObject(item) && typeof item['key'] === 'string') {
			prunes.push({ key: item['key'], at: finite(item['at']), usd: { low: finite(item['low']), mid: finite(item['mid']), high: finite(item['high']) } });
		}
	}
	const settings = parsedObject(row['settings']);
	const observed: ObservedSettings = {
		...(typeof settings['trigger'] === 'string' ? { trigger: settings['trigger'] } : {}),
		...(settings['batching'] === 'turn' || settings['batching'] === 'agent-message' ? { batching: settings['batching'] } : {}),
		...(typeof settings['chainWindow'] === 'number' ? { chainWindow: settings['chainWindow'] } : {}),
	};
	return { prunes, settings: observed };
}

function parsed(value: SqlValue | undefined): unknown[] {
	try {
		const list: unknown = JSON.parse(String(value ?? '[]'));
		return Array.isArray(list) ? list : [];
	} catch {
		return [];
	}
}

function parsedObject(value: SqlValue | undefined): Record<string, unknown> {
	try {
		const object: unknown = JSON.parse(String(value ?? '{}'));
		return isPlainObject(object) ? object : {};
	} catch {
		return {};
	}
}

function finite(value: unknown): number {
	return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

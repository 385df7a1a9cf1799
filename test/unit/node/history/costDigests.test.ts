/**
 * The history's costs from the sessions' cost digests (`historyDigest.ts`, `costDigests.ts`) equal the
 * report of every indexed row (`indexedHistorySteps` → `historyReport`), to the last digit: with a fork
 * and a copied file (their copies counted once), a session across a day boundary of a zone whose days
 * start on a quarter hour, a file that grew after its digest was kept, and a change of the catalog's
 * prices (which enter the rebuilds of requests that recorded no cache-read price).
 */
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { digestedHistorySteps, historyReport, historyReportOf, indexedHistorySteps, NO_PRICES, type HistoryOptions, type HistoryReport, type PriceBook } from '../../../../src/engine/costs';
import { runSteps } from '../../../../src/engine/steps';
import type { HistoryIndex } from '../../../../src/node/history/historyIndex';
import { SCHEMA_VERSION } from '../../../../src/node/history/indexSchema';
import { realSessionsDir } from '../../../support/paths';
import { useTempDir } from '../../../support/tempDirs';
import { append, line, openTestIndex, sessionsRoot, writeSession } from '../../../support/history/indexKit';

interface Usage {
	readonly input: number;
	readonly output?: number;
	readonly cacheRead?: number;
	readonly cacheWrite?: number;
	/** Cost per part; total is their sum unless given. */
	readonly cost?: { readonly input?: number; readonly output?: number; readonly cacheRead?: number; readonly cacheWrite?: number; readonly total?: number };
}

function reply(id: string, at: string, usage: Usage, model = 'claude-sonnet-4-5'): string {
	const cost = { input: usage.cost?.input ?? 0, output: usage.cost?.output ?? 0, cacheRead: usage.cost?.cacheRead ?? 0, cacheWrite: usage.cost?.cacheWrite ?? 0 };
	const total = usage.cost?.total ?? cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
	const tokens = { input: usage.input, output: usage.output ?? 0, cacheRead: usage.cacheRead ?? 0, cacheWrite: usage.cacheWrite ?? 0 };
	const time = Date.parse(at);
	return line({
		type: 'message', id, parentId: null, timestamp: at,
		message: { role: 'assistant', content: [{ type: 'text', text: id }], provider: 'anthropic', model, usage: { ...tokens, totalTokens: tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite, cost: { ...cost, total } }, stopReason: 'stop', timestamp: time },
	});
}

function header(id: string, timestamp: string, extra: Record<string, unknown> = {}): string {
	return line({ type: 'session', version: 3, id, timestamp, cwd: '/work/p', ...extra });
}

describe('history costs from cost digests', function () {
	this.timeout(60_000);
	const temp = useTempDir('cost-digests');
	let index: HistoryIndex | undefined;
	const agent = (): string => join(temp(), 'agent');
	const roots = (): ReturnType<typeof sessionsRoot>[] => [sessionsRoot(agent())];

	afterEach(async () => {
		await index?.close();
		index = undefined;
	});

	async function open(): Promise<HistoryIndex> {
		const result = await openTestIndex(join(temp(), 'index', 'i.sqlite'));
		assert.ok(result.index, JSON.stringify(result.notices));
		index = result.index;
		return result.index;
	}

	/** The report from every row and the report from the digests, after a refresh; asserted equal as JSON text. */
	async function reports(options: HistoryOptions = {}, book: PriceBook = NO_PRICES): Promise<HistoryReport> {
		const opened = index ?? (await open());
		await opened.refresh(roots());
		const rows = runSteps(indexedHistorySteps(await opened.costSessions(roots()), book));
		const fromRows = JSON.stringify(historyReport(rows.requests, rows.sessions, options));
		const history = await opened.costHistory(roots());
		const fromDigests = historyReportOf(runSteps(digestedHistorySteps(history.sessions, history.copies, book)), options);
		assert.equal(JSON.stringify(fromDigests), fromRows);
		return fromDigests;
	}

	it('counts a fork\'s and a copied file\'s copies of a real session once', async () => {
		const source = join(realSessionsDir, 'large-session.migrated-v3.jsonl');
		const parent = writeSession(agent(), 'p', '2025-01-01_parent.jsonl', readFileSync(source, 'utf8'));
		await open();
		const alone = await reports();
		assert.ok(alone.totals.requests > 100 && alone.rebuilds.count > 0, 'a real session with requests and rebuilds');

		const lines = readFileSync(parent, 'utf8').trimEnd().split('\n');
		const parentHeader = JSON.parse(lines[0] as string) as { timestamp: string };
		const forkHeader = header('0f0f0f0f-0000-7000-8000-000000000001', new Date(Date.parse(parentHeader.timestamp) + 1000).toISOString(), { parentSession: parent });
		const own = reply('f0f0f0f0', '2026-12-04T10:00:00.000Z', { input: 5, output: 7, cost: { input: 0.001, output: 0.002 } });
		writeSession(agent(), 'p', '2025-01-02_fork.jsonl', `${forkHeader}${lines.slice(1, 400).join('\n')}\n${own}`);
		const forked = await reports();
		assert.equal(forked.totals.requests, alone.totals.requests + 1, 'the fork adds its own request only');
		assert.equal(forked.rebuilds.count, alone.rebuilds.count, 'the fork\'s copied rebuilds are its parent\'s');

		copyFileSync(parent, join(agent(), 'sessions', '--p--', '2025-01-03_copy.jsonl'));
		const copied = await reports();
		assert.equal(copied.totals.requests, forked.totals.requests, 'a copied file adds nothing');
		assert.equal(copied.totals.cost, forked.totals.cost);
		assert.equal(copied.rebuilds.count, forked.rebuilds.count);
	});

	it('places requests on either side of a day boundary of a zone whose days start on a quarter hour', async () => {
		// Asia/Kathmandu is UTC+5:45: its 3 March starts at 18:15 UTC on 2 March.
		writeSession(agent(), 'p', 'a.jsonl', header('aaaa', '2026-03-02T18:00:00.000Z')
			+ reply('r1', '2026-03-02T18:10:00.000Z', { input: 10, output: 3, cost: { input: 0.1, output: 0.7 } })
			+ reply('r2', '2026-03-02T18:20:00.000Z', { input: 20, output: 4, cost: { input: 0.2, output: 0.3 } }));
		await open();
		const kathmandu = await reports({ timeZone: 'Asia/Kathmandu' });
		assert.deepEqual(kathmandu.byDay.map((day) => [day.key, day.sums.requests, day.sums.cost]), [['2026-03-02', 1, 0.1 + 0.7], ['2026-03-03', 1, 0.2 + 0.3]]);
		const utc = await reports({ timeZone: 'UTC' });
		assert.deepEqual(utc.byDay.map((day) => [day.key, day.sums.requests]), [['2026-03-02', 2]]);
	});

	it('works a digest out again once the file grew', async () => {
		const a = writeSession(agent(), 'p', 'a.jsonl', header('aaaa', '2026-03-02T10:00:00.000Z') + reply('r1', '2026-03-02T10:01:00.000Z', { input: 10, cost: { input: 0.25 } }));
		await open();
		assert.equal((await reports()).totals.requests, 1);
		append(a, reply('r2', '2026-03-02T10:02:00.000Z', { input: 20, cost: { input: 0.5 } }));
		const grown = await reports();
		assert.deepEqual([grown.totals.requests, grown.totals.input, grown.totals.cost], [2, 30, 0.75]);
	});

	it('works the copies among sessions out again when a file grew with a copy', async () => {
		const first = reply('r1', '2026-03-02T10:01:00.000Z', { input: 10, cost: { input: 0.25 } });
		writeSession(agent(), 'p', 'a.jsonl', header('aaaa', '2026-03-02T10:00:00.000Z') + first);
		const b = writeSession(agent(), 'p', 'b.jsonl', header('bbbb', '2026-03-02T11:00:00.000Z') + reply('r2', '2026-03-02T11:01:00.000Z', { input: 20, cost: { input: 0.5 } }));
		await open();
		assert.equal((await reports()).totals.requests, 2);
		append(b, first);
		const copied = await reports();
		assert.deepEqual([copied.totals.requests, copied.bySession.map((session) => session.sums.requests)], [2, [1, 1]]);
	});

	it('prices the rebuilds of requests that read nothing from the cache with the prices of the report', async () => {
		// r2 read nothing from the cache, so its rebuild is priced with the catalog's cache-read price;
		// r3 recorded no cost, which is what puts the model's catalog price in the session's book.
		writeSession(agent(), 'p', 'a.jsonl', header('aaaa', '2026-03-02T10:00:00.000Z')
			+ reply('r1', '2026-03-02T10:01:00.000Z', { input: 100, cacheWrite: 5000, cost: { input: 0.0003, cacheWrite: 0.01875 } })
			+ reply('r2', '2026-03-02T10:02:00.000Z', { input: 100, cacheWrite: 6000, cost: { input: 0.0003, cacheWrite: 0.0225 } })
			+ reply('r3', '2026-03-02T10:03:00.000Z', { input: 50, cacheRead: 6100, cost: { total: 0 } }));
		await open();
		const price = (cacheRead: number): PriceBook => new Map([['anthropic/claude-sonnet-4-5', { input: 3, output: 15, cacheRead, cacheWrite: 3.75 }]]);
		const cheap = await reports({}, price(0.3));
		const dear = await reports({}, price(3));
		assert.equal(cheap.rebuilds.count, 1);
		assert.ok(cheap.rebuilds.cost.mid > dear.rebuilds.cost.mid, `${cheap.rebuilds.cost.mid} > ${dear.rebuilds.cost.mid}: a dearer cache read makes a miss cost less beyond it`);
	});

	it('keeps a digest for a file as read, and uses it while the file is unchanged', async () => {
		const a = writeSession(agent(), 'p', 'a.jsonl', header('aaaa', '2026-03-02T10:00:00.000Z') + reply('r1', '2026-03-02T10:01:00.000Z', { input: 10, cost: { input: 0.25 } }));
		await open();
		await reports();
		const kept = await (index as HistoryIndex).db.read((db) => db.prepare('SELECT consumed FROM costs_digests').all());
		assert.deepEqual(kept.map((row) => Number(row['consumed'])), [readFileSync(a).length]);
		// The rows changed under the digest (by hand): the digest answers, which shows it is what is read.
		await (index as HistoryIndex).db.write((db) => db.prepare('UPDATE usage SET input = 99').run());
		const history = await (index as HistoryIndex).costHistory(roots());
		assert.equal(historyReportOf(runSteps(digestedHistorySteps(history.sessions, history.copies, NO_PRICES))).totals.input, 10);
	});

	it('reads a damaged digest or damaged copies as missing: they are worked out again from the rows, and kept', async () => {
		const source = join(realSessionsDir, 'large-session.migrated-v3.jsonl');
		writeSession(agent(), 'p', 'a.jsonl', readFileSync(source, 'utf8'));
		copyFileSync(source, join(agent(), 'sessions', '--p--', 'b.jsonl'));
		const healthy = JSON.stringify(await reports());
		const opened = index as HistoryIndex;
		const digests = async (): Promise<string> => JSON.stringify(await opened.db.read((db) => db.prepare('SELECT sid, hex(digest) AS digest FROM costs_digests ORDER BY sid').all()));
		const kept = await digests();
		// Cut short, a byte changed in a count, another form's first byte: each reads as nothing, never as other figures.
		for (const damage of ['substr(digest, 1, length(digest) - 1)', "X'01ff'", "X'03' || substr(digest, 2)", "digest || X'00'"]) {
			await opened.db.write((db) => db.exec(`UPDATE costs_digests SET digest = ${damage}; UPDATE costs_copies SET copies = ${damage.replaceAll('digest', 'copies')};`));
			assert.equal(JSON.stringify(await reports()), healthy, damage);
			assert.equal(await digests(), kept, `${damage}: the digests worked out again are kept in place of the damaged ones`);
		}
	});

	it('stores a request\'s total tokens and cost only when they are not the sum of their parts, and reads both back as recorded', async () => {
		writeSession(agent(), 'p', 'a.jsonl', header('a', '2026-03-01T10:00:00.000Z')
			+ reply('r1', '2026-03-01T10:01:00.000Z', { input: 1000, output: 20, cacheRead: 300, cost: { input: 0.1, output: 0.2, cacheRead: 0.7 } })
			+ reply('r2', '2026-03-01T10:02:00.000Z', { input: 10, output: 5, cost: { input: 0.1, output: 0.2, total: 0.25 } }));
		await reports();
		const opened = index as HistoryIndex;
		const stored = await opened.db.read((db) => db.prepare('SELECT line, total_tokens, cost FROM usage ORDER BY line').all());
		// 0.1 + 0.2 + 0.7 is not 1 in floating point: the sum as added, not as written, is what is left out.
		assert.deepEqual(stored.map((row) => [row['total_tokens'], row['cost']]), [[null, null], [null, 0.25]]);
		const read = (await opened.costSessions(roots()))[0]?.requests.map((request) => [request.totalTokens, request.cost]);
		assert.deepEqual(read, [[1320, 0.1 + 0.2 + 0 + 0.7], [15, 0.25]]);
		const viewed = await opened.db.read((db) => db.prepare('SELECT total_tokens, cost FROM usage_with_model ORDER BY line').all());
		assert.deepEqual(viewed.map((row) => [row['total_tokens'], row['cost']]), read);
	});

	it('rebuilds an index of an earlier layout (5, whose search words were read otherwise): every session read again, its costs as a new index\'s, said once', async () => {
		const source = join(realSessionsDir, 'large-session.migrated-v3.jsonl');
		writeSession(agent(), 'p', 'a.jsonl', readFileSync(source, 'utf8'));
		copyFileSync(source, join(agent(), 'sessions', '--p--', 'b.jsonl'));
		const fresh = JSON.stringify(await reports());
		const opened = index as HistoryIndex;
		const requests = JSON.stringify(await opened.costSessions(roots()));
		await opened.db.write((db) => db.exec('PRAGMA user_version = 5;'));
		await opened.close();
		index = undefined;
		const path = join(temp(), 'index', 'i.sqlite');
		const reopened = await openTestIndex(path);
		assert.deepEqual(reopened.notices.map((notice) => [notice.kind, notice.kind === 'rebuilt' ? notice.reason : '']), [['rebuilt', 'older']]);
		assert.ok(reopened.index);
		index = reopened.index;
		assert.ok(existsSync(`${path}.older.bak`));
		const refreshed = await index.refresh(roots());
		assert.deepEqual(Object.fromEntries(refreshed.outcomes), { indexed: 2, removed: 0 }, 'every file read again');
		assert.equal(JSON.stringify(await index.costSessions(roots())), requests);
		assert.equal(JSON.stringify(await reports()), fresh);
		const version = await index.db.read((db) => db.prepare('PRAGMA user_version').get()?.['user_version']);
		assert.equal(Number(version), SCHEMA_VERSION);
	});
});

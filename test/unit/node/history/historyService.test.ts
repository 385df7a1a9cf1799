import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexNotice } from '../../../../src/node/history/indexDatabase';
import { IndexOffError } from '../../../../src/node/history/indexDatabase';
import { HistoryService } from '../../../../src/node/history/service/historyService';
import { isWorkStopped, type WorkScope } from '../../../../src/work';
import { useTempDir } from '../../../support/tempDirs';
import { testScope } from '../../../support/testWork';
import { append, assistantLine, distDir, headerLine, sessionsRoot, userLine, writeSession } from '../../../support/history/indexKit';

describe('history service (the index on a thread of its own)', function () {
	this.timeout(60_000);
	const temp = useTempDir('history-service');
	let scope: WorkScope | undefined;

	afterEach(async () => {
		await scope?.close();
		scope = undefined;
	});

	function started(path = join(temp(), 'index', 'i.sqlite')): { service: HistoryService; notices: IndexNotice[] } {
		const notices: IndexNotice[] = [];
		scope = testScope('history service');
		const service = new HistoryService(scope, { path, ownFolder: false, distDir, batchBytes: 64 * 1024, notify: (notice) => notices.push(notice) });
		return { service, notices };
	}

	const agent = (): string => join(temp(), 'agent');

	it('builds, lists, follows an append, searches, forgets a removed file and clears, all through its thread', async () => {
		const a = writeSession(agent(), 'p', 'a.jsonl', headerLine('aaaa') + userLine('u1', 'the flux capacitor', 1_000) + assistantLine('a1', 'noted', 2_000));
		writeSession(agent(), 'p', 'b.jsonl', headerLine('bbbb') + userLine('u2', 'plain words', 3_000));
		const { service, notices } = started();
		assert.ok(await service.opened);
		const progress: number[] = [];
		const result = await service.refresh([sessionsRoot(agent())], { first: [a], onProgress: (p) => progress.push(p.filesDone) });
		assert.equal(result.outcomes.get('indexed'), 2);
		assert.ok(progress.length > 0);
		const rows = await service.stored([sessionsRoot(agent())]);
		assert.deepEqual(rows.map((row) => row.header?.id).sort(), ['aaaa', 'bbbb']);
		assert.equal(rows.find((row) => row.path === a)?.summary.messageCount, 2);

		append(a, userLine('u3', 'a zebracorn appears', 4_000));
		const after = await service.fileChanged(a, sessionsRoot(agent()));
		assert.equal(after?.summary.messageCount, 3);
		const hits = await service.search('zebracorn', {});
		assert.deepEqual(hits.map((hit) => hit.path), [a]);
		assert.equal(hits[0]?.messages[0]?.line, 4);

		await service.fileRemoved(a);
		assert.deepEqual((await service.stored([sessionsRoot(agent())])).map((row) => row.header?.id), ['bbbb']);
		await service.clear();
		assert.deepEqual(await service.stored([sessionsRoot(agent())]), []);
		assert.deepEqual(notices, []);
	});

	it('answers the history\'s costs from the index: a fork\'s copied request once, a stored prune account counted and no longer due', async () => {
		const parent = writeSession(agent(), 'p', 'parent.jsonl', headerLine('pppp', '/work/p') + userLine('u1', 'go', Date.parse('2026-03-02T10:00:00Z')) + assistantLine('a1', 'done', Date.parse('2026-03-02T10:00:05Z'), 100));
		// Pi's /fork: the parent's reply as it is, then one of its own.
		writeSession(agent(), 'q', 'child.jsonl', `${JSON.stringify({ type: 'session', version: 3, id: 'cccc', timestamp: '2026-03-09T09:00:00.000Z', cwd: '/work/q', parentSession: parent })}\n`
			+ assistantLine('a1', 'done', Date.parse('2026-03-02T10:00:05Z'), 100) + assistantLine('a2', 'more', Date.parse('2026-03-09T10:00:00Z'), 7));
		writeSession(agent(), 'p', 'pruned.jsonl', headerLine('rrrr', '/work/p') + assistantLine('b1', 'x', Date.parse('2026-03-03T10:00:00Z'), 5)
			+ `${JSON.stringify({ type: 'custom', id: 'e1', parentId: 'b1', timestamp: '2026-03-03T10:00:01.000Z', customType: 'context-prune-index', data: { toolCalls: [] } })}\n`);
		const { service } = started();
		await service.refresh([sessionsRoot(agent())]);
		const before = await service.costs([sessionsRoot(agent())], { timeZone: 'UTC' });
		assert.equal(before.report.sessions, 3);
		assert.equal(before.report.totals.requests, 3, 'a1 once, a2, b1');
		assert.equal(before.report.totals.input, 112);
		assert.deepEqual(before.report.byProjectWeek.map((group) => [group.project, group.week, group.sums.requests]), [['/work/p', '2026-03-02', 2], ['/work/q', '2026-03-09', 1]]);
		assert.equal(before.accountsDue, 1, 'the pruned session has no account yet');
		const pruned = (await service.stored([sessionsRoot(agent())])).find((row) => row.header?.id === 'rrrr');
		assert.ok(pruned);
		const prune = { key: 'e1', at: Date.parse('2026-03-03T10:00:01Z'), usd: { low: 0.5, mid: 1, high: 2 } };
		assert.equal(await service.storeAccounts(pruned.path, pruned.consumed, '2.9.1', { prunes: [prune], settings: { trigger: 'budget' } }), true);
		const after = await service.costs([sessionsRoot(agent())], { timeZone: 'UTC' });
		assert.equal(after.accountsDue, 0);
		assert.deepEqual(after.report.pruning, { prunes: 1, net: { low: 0.5, mid: 1, high: 2 } });
		assert.equal(after.titles[pruned.path], 'rrrr (/work/p)');
	});

	it('stops a call whose signal is aborted, and answers the next one', async () => {
		for (let i = 0; i < 40; i++) {
			writeSession(agent(), `p${i % 4}`, `s${i}.jsonl`, headerLine(`id${i}`) + userLine('u', `words ${'x'.repeat(20_000)}`, 1_000));
		}
		const { service } = started();
		const controller = new AbortController();
		const refresh = service.refresh([sessionsRoot(agent())], { signal: controller.signal, onProgress: () => controller.abort() });
		await assert.rejects(refresh, (error) => isWorkStopped(error));
		const rows = await service.stored([sessionsRoot(agent())]);
		assert.ok(rows.length < 40, `stopped before the end (${rows.length})`);
		await service.refresh([sessionsRoot(agent())]);
		assert.equal((await service.stored([sessionsRoot(agent())])).filter((row) => row.size >= 0).length, 40);
	});

	it('is off when its folder cannot be made: every call says so, and the user is told once', async () => {
		// A file where its folder should be: refused even to root (the reliability suite runs a read-only folder as nobody).
		const notFolder = join(temp(), 'a-file');
		writeFileSync(notFolder, '');
		const { service, notices } = started(join(notFolder, 'i.sqlite'));
		assert.equal(await service.opened, undefined);
		await assert.rejects(service.stored([sessionsRoot(agent())]), IndexOffError);
		await assert.rejects(service.search('x', {}), IndexOffError);
		assert.equal(notices.filter((notice) => notice.kind === 'off').length, 1);
	});

	it('closes with its scope: the thread ends and later calls are refused', async () => {
		const { service } = started();
		await service.opened;
		await scope?.close();
		await assert.rejects(service.stored([sessionsRoot(agent())]), (error) => isWorkStopped(error) || error instanceof IndexOffError);
	});
});

/**
 * The Pi Costs view's rows from a history report worked out by hand: two projects over two weeks. The
 * totals; the most expensive sessions, named as the sessions view names them, each opening its path;
 * weeks newest first, each with its projects; projects by spend, each summing its weeks (spend, tokens,
 * rebuilds, pruning's range); the pruned sessions not counted yet; a hostile title kept as plain text.
 */
import assert from 'node:assert/strict';
import { EMPTY_SUMS, type HistoryGroup, type HistoryReport, type UsageSums } from '../../../src/engine/costs';
import { piCostsRows, type CostsRow } from '../../../src/host/history/piCostsNodes';

const sums = (cost: number, requests: number, cacheRead: number): UsageSums => ({ ...EMPTY_SUMS, requests, cost, cacheRead, costCacheRead: cost });
const group = (key: string, cost: number, requests: number, rebuilds: number, net: number, extra: Partial<HistoryGroup> = {}): HistoryGroup => ({
	key, sums: sums(cost, requests, requests * 1_000), rebuilds: { count: rebuilds, cost: { low: rebuilds * 0.1, mid: rebuilds * 0.1, high: rebuilds * 0.1 } },
	pruning: net === 0 ? { prunes: 0, net: { low: 0, mid: 0, high: 0 } } : { prunes: 1, net: { low: net - 0.01, mid: net, high: net + 0.01 } }, ...extra,
});

const HOSTILE = '[click](command:workbench.action.terminal.new) <img src=x>';
const report: HistoryReport = {
	sessions: 3,
	totals: sums(6, 60, 60_000),
	rebuilds: { count: 4, cost: { low: 0.4, mid: 0.4, high: 0.4 } },
	pruning: { prunes: 2, net: { low: 0.2, mid: 0.3, high: 0.4 } },
	bySession: [],
	byDay: [],
	byMonth: [],
	byProjectWeek: [
		group('/p/alpha · 2026-01-05', 1, 10, 1, 0.1, { project: '/p/alpha', week: '2026-01-05' }),
		group('/p/alpha · 2026-01-12', 2, 20, 2, 0.2, { project: '/p/alpha', week: '2026-01-12' }),
		group('/p/beta · 2026-01-12', 3, 30, 1, 0, { project: '/p/beta', week: '2026-01-12' }),
	],
	mostExpensive: [group('/s/b.jsonl', 3, 30, 1, 0), group('/s/a.jsonl', 2, 20, 2, 0.2)],
	settings: [{ setting: 'trigger', groups: [], verdict: { kind: 'too-little-data', reason: 'no pruned session says which value it ran with' } }],
};

const rows = piCostsRows({ report, titles: { '/s/a.jsonl': 'a (index)', '/s/b.jsonl': 'b (index)' }, accountsDue: 2 }, {
	project: (cwd) => cwd.split('/').at(-1) ?? cwd,
	session: (path) => (path === '/s/b.jsonl' ? HOSTILE : undefined),
});
const row = (id: string): CostsRow => {
	const found = rows.find((each) => each.id === id);
	assert.ok(found, id);
	return found;
};

describe('the Pi Costs view\'s rows', () => {
	it('the totals, the rebuilds, pruning as a range, and the pruned sessions not counted yet', () => {
		assert.equal(row('total').label, '$6.00 spent');
		assert.equal(row('total').description, '3 sessions · 60 requests');
		assert.deepEqual([row('rebuilds').label, row('rebuilds').description], ['4 cache rebuilds', '$0.400']);
		assert.equal(row('pruning').label, 'Pruning: saved $0.200 to $0.400');
		assert.equal(row('due').label, '2 pruned sessions not counted in pruning yet');
	});

	it('the most expensive sessions, named as the sessions view does (as plain text), each opening its file', () => {
		const sessions = row('expensive').children ?? [];
		assert.deepEqual(sessions.map((each) => [each.label, each.sessionPath]), [[HOSTILE, '/s/b.jsonl'], ['a (index)', '/s/a.jsonl']]);
		assert.equal(sessions[0]?.description, '$3.00 · 30.0k tokens · 1 rebuild');
		assert.equal(sessions[1]?.description, '$2.00 · 20.0k tokens · 2 rebuilds · pruning $0.190 to $0.210');
	});

	it('weeks newest first with their projects; projects by spend, each the sum of its weeks', () => {
		const weeks = row('weeks').children ?? [];
		assert.deepEqual(weeks.map((week) => [week.label, week.description]), [
			['Week of 2026-01-12', '$5.00 · 50.0k tokens · 3 rebuilds · pruning $0.190 to $0.210'],
			['Week of 2026-01-05', '$1.00 · 10.0k tokens · 1 rebuild · pruning $0.090 to $0.110'],
		]);
		assert.deepEqual(weeks[0]?.children?.map((project) => project.label), ['alpha', 'beta']);
		const projects = row('projects').children ?? [];
		assert.deepEqual(projects.map((project) => [project.label, project.description]), [
			['alpha', '$3.00 · 30.0k tokens · 3 rebuilds · pruning $0.280 to $0.320'],
			['beta', '$3.00 · 30.0k tokens · 1 rebuild'],
		]);
		assert.deepEqual(projects[0]?.children?.map((week) => week.label), ['Week of 2026-01-12', 'Week of 2026-01-05']);
		assert.match(row('settings').children?.[0]?.label ?? '', /^trigger: too little data to tell/);
	});
});

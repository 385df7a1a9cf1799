/**
 * The timeline's markers on crafted sessions, the cache lifetime table's choices, the cache state the status
 * bar will read, and the history's grouping and settings comparison.
 */
import assert from 'node:assert/strict';
import {
	cacheLifetimeOf, cacheStateAt, compareSettings, historyReport, NO_PRICES, requestPricesSteps, sessionTimelineSteps, type RequestPoint, type RequestRow, type SessionRow,
} from '../../../../src/engine/costs';
import { parseSessionSteps } from '../../../../src/engine/session';
import { runSteps } from '../../../../src/engine/steps';
import { SessionBuilder, text } from '../../../support/sessionBuilder';

const MINUTE = 60_000;
const usage = (cacheRead: number, cacheWrite: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
	input: 2, output: 10, cacheRead, cacheWrite, totalTokens: 12 + cacheRead + cacheWrite, cost: { input: 0.000006, output: 0.00015, cacheRead: cacheRead * 0.3e-6, cacheWrite: cacheWrite * 3.75e-6, total: 0.000156 + cacheRead * 0.3e-6 + cacheWrite * 3.75e-6 }, ...extra,
});

function reply(s: SessionBuilder, at: number, u: Record<string, unknown>, model = 'claude-sonnet-4-5'): string {
	return s.message({ role: 'assistant', content: [text('ok')], api: 'anthropic-messages', provider: 'anthropic', model, usage: u, stopReason: 'stop', timestamp: at });
}

describe('costs: the timeline\'s markers', () => {
	it('prunes, compactions, model changes, branch switches, resumes and idle gaps, each before the request it precedes', () => {
		const s = new SessionBuilder();
		s.entry({ type: 'thinking_level_change', thinkingLevel: 'off' });
		s.user('a');
		const first = reply(s, 0, usage(0, 10_000));
		s.user('b');
		reply(s, 2 * MINUTE, usage(10_000, 500));
		// A flush at the end of the message: written after the next reply was requested (its entries are newer).
		s.user('c');
		s.entry({ type: 'custom', customType: 'context-prune-chain', data: { blockId: 'b1' }, timestamp: '2099-01-01T00:00:00.000Z' });
		reply(s, 3 * MINUTE, usage(10_500, 300));
		s.entry({ type: 'thinking_level_change', thinkingLevel: 'off' });
		s.user('d');
		reply(s, 20 * MINUTE, usage(0, 11_000), 'claude-opus-4-5');
		s.entry({ type: 'compaction', summary: 's', firstKeptEntryId: first, tokensBefore: 11_000 });
		s.branchFrom(first);
		s.user('e');
		reply(s, 21 * MINUTE, usage(0, 4_000), 'claude-opus-4-5');
		const timeline = runSteps(sessionTimelineSteps(runSteps(parseSessionSteps(s.text())).entries));
		assert.deepEqual(timeline.markers.map((marker) => [marker.kind, marker.beforeRequest]), [
			['prune', 3],
			['resume', 3],
			['model-change', 3],
			['idle-gap', 3],
			['compaction', 4],
			['branch-switch', 4],
		]);
		const gap = timeline.markers.find((marker) => marker.kind === 'idle-gap');
		assert.equal(gap?.kind === 'idle-gap' && gap.certainty, 'expired');
		assert.equal(gap?.kind === 'idle-gap' && gap.gapMs, 17 * MINUTE);
	});
});

describe('costs: cache lifetimes', () => {
	const request = (provider: string, api: string, model: string, tokens: Partial<RequestPoint['tokens']>, cost: Partial<RequestPoint['cost']> = {}): Pick<RequestPoint, 'provider' | 'model' | 'api' | 'tokens' | 'cost'> => ({
		provider, api, model, tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: undefined, totalTokens: 0, ...tokens }, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0, ...cost },
	});
	it('Anthropic 5 minutes, 1 hour when the request wrote for an hour (recorded, or billed at twice the input price), kept by requests that wrote nothing', () => {
		assert.equal(cacheLifetimeOf(request('anthropic', 'anthropic-messages', 'claude-sonnet-4-5', { cacheWrite: 100 })).rule, 'anthropic-5m');
		const hour = cacheLifetimeOf(request('anthropic', 'anthropic-messages', 'claude-sonnet-4-5', { cacheWrite: 100, cacheWrite1h: 100 }));
		assert.equal(hour.rule, 'anthropic-1h');
		assert.equal(hour.likelyMs, 60 * MINUTE);
		assert.equal(cacheLifetimeOf(request('anthropic', 'anthropic-messages', 'claude-sonnet-4-5', { input: 10, cacheWrite: 100 }, { input: 30e-6, cacheWrite: 600e-6 })).rule, 'anthropic-1h', '6 per million = 2x 3');
		assert.equal(cacheLifetimeOf(request('anthropic', 'anthropic-messages', 'claude-sonnet-4-5', { input: 10, cacheWrite: 100 }, { input: 30e-6, cacheWrite: 375e-6 })).rule, 'anthropic-5m', '3.75 per million = 1.25x 3');
		assert.equal(cacheLifetimeOf(request('anthropic', 'anthropic-messages', 'claude-sonnet-4-5', { cacheRead: 100 }), hour).rule, 'anthropic-1h');
		const openai = cacheLifetimeOf(request('openai', 'openai-responses', 'gpt-5.1', { cacheRead: 100 }));
		assert.deepEqual([openai.rule, openai.likelyMs, openai.surelyMs], ['openai', 5 * MINUTE, 10 * MINUTE]);
		assert.equal(cacheLifetimeOf(request('someone', 'x', 'y', {})).rule, 'unknown');
	});

	it('the cache state at a moment: warm with the minutes left and the re-write price, then expired', () => {
		const s = new SessionBuilder();
		s.user('a');
		reply(s, 0, usage(0, 50_000));
		s.user('b');
		reply(s, MINUTE, usage(50_000, 1_000));
		const timeline = runSteps(sessionTimelineSteps(runSteps(parseSessionSteps(s.text())).entries));
		const prices = runSteps(requestPricesSteps(timeline.requests, NO_PRICES));
		const warm = cacheStateAt(timeline, prices, 3 * MINUTE);
		assert.equal(warm.kind, 'warm');
		assert.equal(warm.kind === 'warm' && warm.remainingMs, 3 * MINUTE);
		assert.equal(warm.kind === 'warm' && warm.cachedTokens, 51_002);
		// Paid per uncached token: (0.000006 + 1,000 × 3.75e-6) / 1,002; read: 0.3e-6.
		assert.ok(warm.kind === 'warm' && Math.abs(warm.rewritePerToken - ((0.000006 + 0.00375) / 1_002 - 0.3e-6)) < 1e-15);
		assert.equal(cacheStateAt(timeline, prices, 7 * MINUTE).kind, 'expired');
	});
});

describe('costs: the history', () => {
	const row = (session: string, entryId: string, at: string, cost: number): RequestRow => ({
		session, entryId, entryTimestamp: at, kind: 'reply', provider: 'anthropic', model: 'm',
		tokens: { input: 1, output: 1, cacheRead: 10, cacheWrite: 0, cacheWrite1h: undefined, totalTokens: 12 }, cost: { input: 0, output: 0, cacheRead: cost, cacheWrite: 0, total: cost },
	});
	const session = (path: string, project: string, startedAt: number, prunes: number[], settings?: SessionRow['settings']): SessionRow => ({
		session: path, id: path, project, startedAt, rebuilds: [], prunes: prunes.map((net, i) => ({ key: `${path}-${i}`, at: Date.parse('2026-01-07T12:00:00Z'), usd: { low: net - 0.01, mid: net, high: net + 0.01 } })), ...(settings ? { settings } : {}),
	});

	it('per project and ISO week (Monday), per day and month in the time zone given', () => {
		const sessions = [session('/a.jsonl', '/p1', 0, [0.5]), session('/b.jsonl', '/p2', 1, [])];
		const rows = [row('/a.jsonl', 'e1', '2026-01-04T23:30:00.000Z', 1), row('/a.jsonl', 'e2', '2026-01-05T00:30:00.000Z', 2), row('/b.jsonl', 'e3', '2026-01-07T10:00:00.000Z', 4)];
		const utc = historyReport(rows, sessions, { timeZone: 'UTC' });
		assert.deepEqual(utc.byProjectWeek.map((group) => [group.project, group.week, group.sums.cost, group.pruning.prunes]), [['/p1', '2025-12-29', 1, 0], ['/p1', '2026-01-05', 2, 1], ['/p2', '2026-01-05', 4, 0]]);
		assert.deepEqual(utc.byDay.map((group) => group.key), ['2026-01-04', '2026-01-05', '2026-01-07']);
		// In Berlin (UTC+1) the first request is already on Monday the 5th.
		const berlin = historyReport(rows, sessions, { timeZone: 'Europe/Berlin' });
		assert.deepEqual(berlin.byDay.map((group) => [group.key, group.sums.requests]), [['2026-01-05', 2], ['2026-01-07', 1]]);
		assert.deepEqual(utc.mostExpensive.map((group) => group.key), ['/b.jsonl', '/a.jsonl']);
	});

	it('which settings paid back best, and when there is too little data to tell', () => {
		const many = (trigger: string, net: number, n: number, offset: number): SessionRow[] => Array.from({ length: n }, (_, i) => session(`/${trigger}-${i}`, '/p', offset + i, [net], { trigger, batching: 'turn' }));
		const [trigger, batching, window] = compareSettings([...many('message-end', 0.2, 3, 0), ...many('budget', -0.1, 3, 10)]);
		assert.deepEqual(trigger?.verdict, { kind: 'best', value: 'message-end' });
		assert.deepEqual(batching?.verdict, { kind: 'too-little-data', reason: 'every pruned session ran with turn' });
		assert.equal(window?.verdict.kind, 'too-little-data');
		const [thin] = compareSettings([...many('message-end', 0.2, 3, 0), ...many('budget', -0.1, 2, 10)]);
		assert.deepEqual(thin?.verdict, { kind: 'too-little-data', reason: 'fewer than 3 pruned sessions ran with budget' });
		const [close] = compareSettings([...many('message-end', 0.2, 3, 0), ...many('budget', 0.195, 3, 10)]);
		assert.deepEqual(close?.verdict, { kind: 'no-clear-difference' });
	});
});

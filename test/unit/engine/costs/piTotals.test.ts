/**
 * A session's totals and cache rebuilds against Pi 1.6.0's own code (`/session`: `getSessionStats`, the cache
 * waste of `core/cache-stats.js`), run on every fixture and on a Pi 1.x session with every kind of usage Pi
 * records; and the real session of the issue: 453 requests, $30.33, 43,229,469 cache-read and 4,296,232
 * cache-write tokens.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NO_PRICES, sessionOverviewSteps, sessionTimelineSteps } from '../../../../src/engine/costs';
import { parseSessionSteps } from '../../../../src/engine/session';
import { runSteps } from '../../../../src/engine/steps';
import { piCondenseSessionsDir, realSessionFiles, realSessionsDir } from '../../../support/paths';
import { statsWithPi16 } from '../../../support/pi16Stats';
import { SessionBuilder, text, toolCall } from '../../../support/sessionBuilder';
import { useTempDir } from '../../../support/tempDirs';

const close = (actual: number, expected: number, label: string): void => assert.ok(Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)), `${label}: ${actual} ≠ ${expected}`);

function fixtureFiles(): string[] {
	const reference = readdirSync(piCondenseSessionsDir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => join(piCondenseSessionsDir, entry.name, 'session.jsonl'));
	return [...realSessionFiles(), ...reference].sort();
}

interface Usage { input: number; output: number; cacheRead: number; cacheWrite: number; cost: number }
const usage = ({ input, output, cacheRead, cacheWrite, cost }: Usage): Record<string, unknown> => ({
	input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite,
	cost: { input: cost * 0.1, output: cost * 0.2, cacheRead: cost * 0.3, cacheWrite: cost * 0.4, total: cost },
});

/** A Pi 1.x session with each usage Pi counts: replies, a tool's own, cache warming, a compaction's and a branch summary's, an unknown kind. */
function everyUsageKind(): string {
	const s = new SessionBuilder();
	const reply = (at: number, u: Usage, model = 'claude-sonnet-4-5'): string => s.message({
		role: 'assistant', content: [text('ok')], api: 'anthropic-messages', provider: 'anthropic', model, usage: usage(u), stopReason: 'stop', timestamp: at,
	});
	s.user('one');
	reply(1_000_000, { input: 5, output: 100, cacheRead: 0, cacheWrite: 20_000, cost: 0.08 });
	s.user('two');
	reply(1_010_000, { input: 5, output: 100, cacheRead: 20_000, cacheWrite: 2_000, cost: 0.02 });
	s.entry({ type: 'usage', kind: 'cache_warm', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: usage({ input: 0, output: 1, cacheRead: 22_000, cacheWrite: 0, cost: 0.0066 }) });
	s.user('three');
	reply(1_900_000, { input: 5, output: 80, cacheRead: 0, cacheWrite: 24_000, cost: 0.09 });
	s.message({ role: 'assistant', content: [toolCall('c1', 'bash', { command: 'ls' })], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: usage({ input: 3, output: 20, cacheRead: 24_000, cacheWrite: 300, cost: 0.01 }), stopReason: 'toolUse', timestamp: 1_905_000 });
	s.message({ role: 'toolResult', toolCallId: 'c1', toolName: 'bash', content: [text('a')], isError: false, usage: usage({ input: 400, output: 50, cacheRead: 0, cacheWrite: 0, cost: 0.002 }) });
	reply(1_906_000, { input: 2, output: 10, cacheRead: 3_000, cacheWrite: 21_500, cost: 0.085 }, 'claude-opus-4-5');
	s.entry({ type: 'compaction', summary: 's', firstKeptEntryId: s.leafId, tokensBefore: 24_000, usage: usage({ input: 24_000, output: 500, cacheRead: 0, cacheWrite: 0, cost: 0.08 }) });
	s.user('four');
	reply(1_950_000, { input: 5, output: 10, cacheRead: 0, cacheWrite: 3_000, cost: 0.012 });
	s.entry({ type: 'branch_summary', fromId: 'root', summary: 'b', usage: usage({ input: 900, output: 30, cacheRead: 0, cacheWrite: 0, cost: 0.003 }) });
	s.entry({ type: 'usage', kind: 'something_new', provider: 'x', model: 'y', usage: usage({ input: 7, output: 7, cacheRead: 0, cacheWrite: 0, cost: 0.0001 }) });
	return s.text();
}

describe('costs: totals and cache rebuilds equal Pi 1.6.0\'s own', function () {
	this.timeout(120_000);
	const temp = useTempDir('costs-pi-totals');

	it('on every fixture and on a session with every kind of usage', async () => {
		const crafted = join(temp(), 'every-usage.jsonl');
		writeFileSync(crafted, everyUsageKind());
		const files = [...fixtureFiles(), crafted];
		const pi = await statsWithPi16(files);
		files.forEach((file, i) => {
			const theirs = pi[i];
			assert.ok(theirs && theirs.error === undefined, `${file}: Pi failed: ${theirs?.error ?? ''}`);
			const model = runSteps(parseSessionSteps(readFileSync(file, 'utf8')));
			const { timeline, rebuilds } = runSteps(sessionOverviewSteps(model.entries, NO_PRICES));
			const { sums } = timeline;
			assert.deepEqual([sums.input, sums.output, sums.cacheRead, sums.cacheWrite], [theirs.stats.tokens.input, theirs.stats.tokens.output, theirs.stats.tokens.cacheRead, theirs.stats.tokens.cacheWrite], `${file}: tokens`);
			close(sums.cost, theirs.stats.cost, `${file}: cost`);
			assert.equal(timeline.requests.filter((request) => request.kind === 'reply').length, theirs.stats.assistantMessages, `${file}: replies`);
			assert.equal(rebuilds.length, theirs.waste.missCount, `${file}: rebuilds`);
			assert.equal(rebuilds.reduce((sum, rebuild) => sum + rebuild.missedTokens, 0), theirs.waste.missedTokens, `${file}: missed tokens`);
			close(rebuilds.reduce((sum, rebuild) => sum + rebuild.missedCost, 0), theirs.waste.missedCost, `${file}: missed cost`);
			assert.deepEqual(rebuilds.map((rebuild) => [timeline.requests[rebuild.request]?.at, rebuild.missedTokens, rebuild.idleMs]), theirs.misses.map((miss) => [miss.timestamp, miss.missedTokens, miss.idleMs]), `${file}: each rebuild`);
		});
		const ours = runSteps(sessionTimelineSteps(runSteps(parseSessionSteps(everyUsageKind())).entries));
		assert.deepEqual(ours.requests.map((request) => request.kind), ['reply', 'reply', 'usage', 'reply', 'reply', 'tool', 'reply', 'summary', 'reply', 'summary', 'usage'], 'every usage is a request of its kind');
	});

	it('the real session of the issue: 453 requests, $30.33, 43,229,469 cache-read and 4,296,232 cache-write tokens (v1 and its v3 migration alike)', () => {
		for (const name of ['large-session.jsonl', 'large-session.migrated-v3.jsonl']) {
			const { sums } = runSteps(sessionTimelineSteps(runSteps(parseSessionSteps(readFileSync(join(realSessionsDir, name), 'utf8'))).entries));
			assert.equal(sums.requests, 453, name);
			assert.equal(sums.cost.toFixed(2), '30.33', name);
			assert.equal(sums.cacheRead, 43_229_469, name);
			assert.equal(sums.cacheWrite, 4_296_232, name);
		}
	});
});

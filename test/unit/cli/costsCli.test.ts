/**
 * `pi-condense costs`, end to end through `node dist/cli.js`, on a session written by real Pi 1.6.0 with real
 * pi-condense 2.9.1 (`batching-pi-1.6.0`, found in an agent dir laid out as a user's, by id prefix), and
 * `costs --all` over that agent dir with a fork of it: each request counted once.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../../support/paths';
import { referenceAgentDir, type ReferenceAgentDir } from '../../support/referenceAgentDir';

const CLI = join(repoRoot, 'dist', 'cli.js');

interface CostsJson {
	readonly summary: { readonly requests: number; readonly replies: number; readonly tokens: { readonly input: number; readonly output: number }; readonly spend: { readonly total: number }; readonly pruning: { readonly prunes: number; readonly free: number; readonly notMeasured: number; readonly calibration: { readonly from: string } } };
	readonly markers: readonly { readonly kind: string; readonly summaries?: number; readonly chains?: number; readonly trigger?: string }[];
	readonly accounts: readonly { readonly verdictText: string; readonly firstRequest?: number; readonly removedTokens: { readonly mid: number } }[];
}

function run(dir: ReferenceAgentDir, ...args: string[]): { stdout: string; stderr: string; status: number | null } {
	return spawnSync(process.execPath, [CLI, ...args], { cwd: dir.agentDir, encoding: 'utf8', env: { ...process.env, PI_CODING_AGENT_DIR: dir.agentDir } });
}

describe('pi-condense costs (a session by real Pi 1.6.0 and pi-condense 2.9.1)', function () {
	this.timeout(60_000);
	let dir: ReferenceAgentDir;
	beforeEach(() => {
		dir = referenceAgentDir('batching-pi-1.6.0');
	});
	afterEach(() => dir.cleanup());

	it('--json: 17 requests as Pi recorded them, one prune marker per flush that changed the context, each accounted', () => {
		const id = (JSON.parse(readFileSync(dir.sessionFile, 'utf8').split('\n')[0] as string) as { id: string }).id;
		const result = run(dir, 'costs', id.slice(0, 8), '--json');
		assert.equal(result.status, 0, result.stderr);
		const costs = JSON.parse(result.stdout) as CostsJson;
		assert.equal(costs.summary.requests, 17);
		assert.equal(costs.summary.replies, 17);
		assert.equal(costs.summary.tokens.input, 28_911);
		assert.equal(costs.summary.spend.total, 0);
		// pi-condense 2.9.1 flushed at the end of each agent message: 6 flushes with summaries, chains or aliases (an empty one writes only metrics).
		const prunes = costs.markers.filter((marker) => marker.kind === 'prune');
		assert.equal(prunes.length, 6);
		assert.deepEqual(prunes.map((marker) => [marker.summaries, marker.chains, marker.trigger]), [[1, 0, 'message-end'], [1, 0, 'message-end'], [1, 1, 'message-end'], [0, 1, 'message-end'], [1, 1, 'message-end'], [1, 1, 'message-end']]);
		assert.equal(costs.summary.pruning.prunes, 6);
		// The scripted model recorded no cache and no cost: nothing to re-write, nothing priced. The last flush had no request after it.
		assert.deepEqual(costs.accounts.map((account) => account.verdictText), [...Array<string>(5).fill('free: the provider reported no prompt cache'), 'not measured: no request was sent with it']);
		assert.equal(costs.summary.pruning.calibration.from, 'growth');
		// Chains take out more than they add: the prunes with a chain removed tokens.
		assert.ok(costs.accounts.slice(2, 5).every((account) => account.removedTokens.mid > 0));
	});

	it('text: the summary, each prune, the timeline with its markers', () => {
		const result = run(dir, 'costs', dir.sessionFile);
		assert.equal(result.status, 0, result.stderr);
		const lines = result.stdout.split('\n');
		assert.equal(lines[0], dir.sessionFile);
		assert.match(result.stdout, /^Requests: 17 \(17 in the conversation\) · fake\/fake-model$/m);
		assert.match(result.stdout, /^Pruning: 6 prunes \(0 paid back, 0 not paid back, 5 free, 1 not measured\)/m);
		assert.match(result.stdout, /^ {2}prune 3 before request 10 \(1 summary, 1 chain, 1 duplicate\): removed ~\d+ tokens/m);
		assert.match(result.stdout, /^ {2}── prune: 1 summary, 1 chain, 0 spills \(message-end\)$/m);
		assert.ok(lines.filter((line) => /^ +\d+ {2}2026-12-02T/.test(line)).length === 17, 'one row per request');
	});

	it('--all: the session and a fork of it, each request counted once', () => {
		const text = readFileSync(dir.sessionFile, 'utf8');
		const lines = text.trimEnd().split('\n');
		const header = JSON.parse(lines[0] as string) as Record<string, unknown>;
		// Pi's /fork: the parent's entries up to the fork point, as they are, in a new file naming its parent.
		const fork = [JSON.stringify({ ...header, id: '01aaaaaa-0000-7000-8000-000000000001', timestamp: '2026-12-03T00:00:00.000Z', parentSession: dir.sessionFile }), ...lines.slice(1, 30)];
		writeFileSync(join(dirname(dir.sessionFile), '2026-12-03T00-00-00-000Z_01aaaaaa-0000-7000-8000-000000000001.jsonl'), `${fork.join('\n')}\n`);
		const result = run(dir, 'costs', '--all', '--json');
		assert.equal(result.status, 0, result.stderr);
		const report = JSON.parse(result.stdout) as { sessions: number; totals: { requests: number; input: number }; bySession: { key: string; sums: { requests: number } }[] };
		assert.equal(report.sessions, 2);
		assert.equal(report.totals.requests, 17, 'the fork\'s copied requests are the parent\'s');
		assert.equal(report.totals.input, 28_911);
		assert.deepEqual(report.bySession.map((group) => group.sums.requests), [17]);
		const text2 = run(dir, 'costs', '--all');
		assert.match(text2.stdout, /^2 sessions · 17 requests \(each counted once\)/m);
		assert.match(text2.stdout, /too little data to tell/);
	});

	it('--all takes no session; --json is allowed; --all elsewhere is refused', () => {
		assert.match(run(dir, 'costs', '--all', 'abc').stderr, /costs --all takes no session/);
		assert.match(run(dir, 'status', '--all', dir.sessionFile).stderr, /--all only applies to costs/);
	});
});

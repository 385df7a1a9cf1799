/**
 * The Costs panel's data (`costsViewSteps`): the real session as columns whose sums are Pi's own
 * totals (453 requests, $30.33, 43,229,469 cache-read and 4,296,232 cache-write tokens), labels
 * counted once, the summary's lines as label and text; on a session by real Pi 1.6.0 and pi-condense
 * 2.9.1 the overview has no accounts and the whole costs one per prune, with the CLI's words; and
 * pruning's running balance worked out by hand over two prunes.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CostsLedger, costsViewSteps, NO_PRICES, runningBalanceSteps, sessionCostsSteps, verdictText, type PruneAccount } from '../../../../src/engine/costs';
import { releaseRules } from '../../../../src/engine/release';
import { parseSessionSteps } from '../../../../src/engine/session';
import { runSteps } from '../../../../src/engine/steps';
import { releaseDefaults } from '../../../../src/engine/config';
import { piCondenseSessionsDir, realSessionsDir } from '../../../support/paths';

const modelOf = (file: string) => runSteps(parseSessionSteps(readFileSync(file, 'utf8')));
const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);

/** A prune account with only what the running balance reads. */
const account = (balance: readonly { request: number; usd: number }[]): PruneAccount => ({ balance } as unknown as PruneAccount);

describe('costs: the Costs panel\'s data', () => {
	it('the real session of the issue: columns that sum to Pi\'s totals, one label per model, the summary as label and text', () => {
		const model = modelOf(join(realSessionsDir, 'large-session.jsonl'));
		const ledger = runSteps(CostsLedger.empty().extendSteps(model.entries));
		const view = runSteps(costsViewSteps(ledger.overview(NO_PRICES)));
		assert.equal(view.requests.at.length, 453);
		assert.equal(sum(view.requests.cost).toFixed(2), '30.33');
		assert.equal(sum(view.requests.cacheRead), 43_229_469);
		assert.equal(sum(view.requests.cacheWrite), 4_296_232);
		assert.equal(new Set(view.labels).size, view.labels.length, 'each label once');
		assert.ok(view.requests.label.every((index) => index >= 0 && index < view.labels.length));
		assert.equal(view.prunes, undefined, 'the overview has no account yet');
		assert.equal(view.balance, undefined);
		assert.deepEqual(view.summary.map((line) => line.label), ['Requests', 'Spend', 'Tokens', 'Cache hit rate', 'Cache rebuilds', 'Pruning']);
		assert.match(view.summary[1]?.text ?? '', /^\$30\.33 \(input /);
	});

	it('a session by real Pi 1.6.0 and pi-condense 2.9.1: each prune accounted, in the CLI\'s words, once worked out', () => {
		const model = modelOf(join(piCondenseSessionsDir, 'batching-pi-1.6.0', 'session.jsonl'));
		const rules = releaseRules('2.9.1');
		const ledger = runSteps(CostsLedger.empty().extendSteps(model.entries));
		const costs = runSteps(sessionCostsSteps({ model, rules, config: releaseDefaults(rules), prices: NO_PRICES, ledger }));
		const view = runSteps(costsViewSteps(ledger.overview(NO_PRICES), costs));
		assert.equal(view.prunes?.length, 6);
		assert.deepEqual(view.prunes?.map((prune) => prune.verdict), costs.accounts.map((each) => verdictText(each.verdict)));
		assert.deepEqual(view.prunes?.map((prune) => prune.firstRequest), costs.accounts.map((each) => each.firstRequest));
		assert.equal(view.prunes?.at(-1)?.firstRequest, undefined, 'the last flush had no request after it');
		assert.equal(view.markers.filter((marker) => marker.kind === 'prune').length, 6);
		assert.equal(view.balance?.length, 17);
		const pruning = view.summary.find((line) => line.label === 'Pruning');
		assert.match(pruning?.text ?? '', /^6 prunes \(0 paid back, 0 not paid back, 5 free, 1 not measured\); net .*; costs .* saved/, 'the lines below it continue it');
		assert.ok(view.summary.some((line) => line.label === 'Calibration'));
	});

	it('pruning\'s running balance: each prune\'s own balance from its first request on, its last one kept after', () => {
		// Prune A: −0.10 after request 1, −0.04 after 2, +0.02 after 3. Prune B: −0.05 after request 3 only.
		const a = account([{ request: 1, usd: -0.10 }, { request: 2, usd: -0.04 }, { request: 3, usd: 0.02 }]);
		const b = account([{ request: 3, usd: -0.05 }]);
		const balance = runSteps(runningBalanceSteps([a, b], 5));
		const expected = [0, -0.10, -0.04, 0.02 - 0.05, 0.02 - 0.05];
		assert.equal(balance.length, 5);
		balance.forEach((value, i) => assert.ok(Math.abs(value - (expected[i] as number)) < 1e-12, `request ${i}: ${value} vs ${expected[i]}`));
	});
});

/**
 * One price source on the preview page (real bundle, headless Chromium): a session whose last reply has a cost
 * Pi recorded, on a model pi-ai has no prices for. The cache panel never says "no prices" beside that cost: it
 * prices the next call at the last call's recorded prices and says so, or, when that cost cannot tell the
 * cache-read price from the input price, says why there is no cost and names the recorded one.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { releaseRules } from '../../src/engine/release/releases';
import { referenceAgentDir, type ReferenceAgentDir } from '../support/referenceAgentDir';
import { SessionFileSource } from '../support/sessionFileSource';
import { WebviewPage } from '../support/webviewPage';

type Recorded = { input: number; cacheRead: number; cost: { input: number; cacheRead: number; total: number } };

/** The session with its last reply's usage as Pi records a paid call on `model`. */
function withRecordedCost(dir: ReferenceAgentDir, model: string, recorded: Recorded): void {
	const lines = readFileSync(dir.sessionFile, 'utf8').split('\n');
	const last = lines.reduce((found, line, index) => (line.includes('"role":"assistant"') ? index : found), -1);
	const entry = JSON.parse(lines[last] ?? '{}') as { message: { model: string; usage: Record<string, unknown> } };
	entry.message.model = model;
	entry.message.usage = {
		input: recorded.input, output: 10, cacheRead: recorded.cacheRead, cacheWrite: 0, totalTokens: recorded.input + recorded.cacheRead + 10,
		cost: { input: recorded.cost.input, output: recorded.cost.total - recorded.cost.input - recorded.cost.cacheRead, cacheRead: recorded.cost.cacheRead, cacheWrite: 0, total: recorded.cost.total },
	};
	lines[last] = JSON.stringify(entry);
	writeFileSync(dir.sessionFile, lines.join('\n'));
}

describe('the preview page\'s one price source', function () {
	this.timeout(90_000);
	let dir: ReferenceAgentDir | undefined;
	let page: WebviewPage | undefined;

	afterEach(async () => {
		await page?.close();
		dir?.cleanup();
	});

	async function open(recorded: Recorded): Promise<{ cache: string; usage: string; values: Record<string, number> }> {
		dir = referenceAgentDir('basic');
		withRecordedCost(dir, 'model-pi-ai-does-not-price', recorded);
		const source = new SessionFileSource(dir.sessionFile, dir.agentDir, releaseRules('2.9.1'), undefined);
		await source.reload();
		page = await WebviewPage.open(source);
		const report = await page.waitForReport((r) => r.cause === 'snapshot');
		await page.page.locator('.cache details.how').evaluate((details) => details.setAttribute('open', ''));
		assert.deepEqual(page.pageErrors, []);
		return { cache: await page.page.locator('.cache').innerText(), usage: await page.page.locator('.usage').innerText(), values: report.values };
	}

	it('prices the next call at the cost Pi recorded for the last call, and says where the prices come from', async () => {
		const { cache, usage, values } = await open({ input: 100, cacheRead: 3900, cost: { input: 0.0003, cacheRead: 0.00117, total: 0.0046 } });
		assert.match(usage, /\$0\.0046/, 'the recorded cost under Last call');
		assert.doesNotMatch(cache, /No prices known/);
		assert.ok(values['cache.costWith'] !== undefined && values['cache.costWithout'] !== undefined, 'the cost table is there');
		assert.match(cache, /input cost \(at the last call's prices\)/);
		assert.match(cache, /Prices \([a-z-]+\/model-pi-ai-does-not-price, as Pi recorded the last call's cost, token kind by kind: pi-ai has no prices for it\): input \$3\/M, cache read \$0\.3\/M/);
	});

	it('says why there is no cost beside a recorded one that cannot tell the prices apart', async () => {
		const { cache, usage, values } = await open({ input: 4000, cacheRead: 0, cost: { input: 0.012, cacheRead: 0, total: 0.0122 } });
		assert.match(usage, /\$0\.0122/);
		assert.equal(values['cache.costWith'], undefined);
		assert.doesNotMatch(cache, /No prices known/);
		assert.match(cache, /Token figures only: pi-ai has no prices for [a-z-]+\/model-pi-ai-does-not-price, and the cost Pi recorded for the last call \(\$0\.0122, under Last call\) does not say the cache-read and input prices apart/);
	});
});

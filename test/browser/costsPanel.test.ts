/**
 * The Costs panel in the real page bundle, on a session written by real Pi 1.6.0 with pi-condense
 * 2.9.1 (17 requests, 6 flushes): closed, nothing is worked out; opened, the chart (uPlot's canvas)
 * and the tables beside it show every request, the markers between them and each prune's account;
 * a prune's "request N" goes to that row; the panel stays open across a reload; a model name that
 * carries markup is shown as text; no CSP violation; axe finds nothing serious in dark and light.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../support/paths';
import { referenceAgentDir, type ReferenceAgentDir } from '../support/referenceAgentDir';
import { SessionFileSource } from '../support/sessionFileSource';
import type { ThemeName } from '../support/webviewThemes';
import { WebviewPage, type PageOptions } from '../support/webviewPage';
import { releaseRules } from '../../src/engine/release/releases';
import type { RenderReport } from '../../src/shared/protocol';

const AXE = readFileSync(join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

async function seriousViolations(page: WebviewPage): Promise<string[]> {
	await page.page.evaluate(`${AXE};0`);
	return page.page.evaluate(async () => {
		const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe;
		const result = await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] });
		return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`);
	});
}

async function openSession(options: { theme?: ThemeName; modelName?: string; sentinel?: (id: string) => void; hold?: PageOptions['hold'] } = {}): Promise<{ dir: ReferenceAgentDir; source: SessionFileSource; page: WebviewPage }> {
	const dir = referenceAgentDir('batching-pi-1.6.0');
	if (options.modelName !== undefined) {
		const text = readFileSync(dir.sessionFile, 'utf8');
		writeFileSync(dir.sessionFile, text.replaceAll('"model":"fake-model"', `"model":${JSON.stringify(options.modelName)}`));
	}
	const source = new SessionFileSource(dir.sessionFile, dir.agentDir, releaseRules('2.9.1'));
	await source.reload();
	const page = await WebviewPage.open(source, { theme: options.theme ?? 'dark', viewport: { width: 1400, height: 900 }, ...(options.sentinel ? { sentinel: options.sentinel } : {}), ...(options.hold ? { hold: options.hold } : {}) });
	await page.waitForReport((r) => r.cause === 'snapshot');
	return { dir, source, page };
}

/** Opens the panel and waits for every prune's account. */
async function openCosts(page: WebviewPage): Promise<RenderReport> {
	const accounted = page.nextReport((r) => r.cause === 'costs' && (r.values['costs.prunes'] ?? -1) >= 0);
	await page.page.locator('[data-control="costs"]').click();
	return accounted;
}

describe('the Costs panel', function () {
	this.timeout(120_000);
	let dir: ReferenceAgentDir | undefined;
	let page: WebviewPage | undefined;

	afterEach(async () => {
		await page?.close();
		dir?.cleanup();
		page = undefined;
		dir = undefined;
	});

	it('is worked out only once opened; then shows the chart, every request, the markers and each prune\'s account', async () => {
		({ dir, page } = await openSession());
		assert.ok(!page.fromPage.some((message) => message.type === 'showCosts'), 'the page does not ask before the panel is opened');
		assert.ok(!page.reports.some((report) => report.cause === 'costs'), 'nothing is posted while it is closed');
		assert.equal(await page.page.locator('section.costs').isHidden(), true);
		const report = await openCosts(page);
		assert.equal(report.values['costs.requests'], 17);
		assert.equal(report.values['costs.prunes'], 6);
		assert.equal(await page.page.locator('section.costs').isVisible(), true);
		assert.equal(await page.page.locator('main.content').isHidden(), true, 'the panel takes the messages\' place');
		assert.equal(await page.page.locator('[data-control="costs"]').getAttribute('aria-pressed'), 'true');
		// uPlot drew on its canvas, inside a labelled image.
		assert.equal(await page.page.locator('.costs-chart canvas').count(), 1);
		assert.match(await page.page.locator('.costs-chart').getAttribute('aria-label') ?? '', /^Chart of 17 requests: .* with 6 prunes marked/);
		// The requests table: 17 rows, the 6 prune markers between them.
		assert.equal(await page.page.locator('table.requests tbody tr[data-request]').count(), 17);
		assert.equal(await page.page.locator('table.requests tr.marker-prune').count(), 6);
		assert.match(await page.page.locator('table.requests caption').innerText(), /^Requests 1–17 of 17/);
		// Each prune's account, as the CLI words it.
		const verdicts = await page.page.locator('table.prunes tbody tr td:last-child').allInnerTexts();
		assert.deepEqual(verdicts, [...Array<string>(5).fill('free: the provider reported no prompt cache'), 'not measured: no request was sent with it']);
		const summary = await page.page.locator('.costs-summary').innerText();
		assert.match(summary, /Requests\s+17 \(17 in the conversation\) · fake\/fake-model/);
		assert.match(summary, /Pruning\s+6 prunes \(0 paid back, 0 not paid back, 5 free, 1 not measured\)/);
		assert.deepEqual(await page.violations(), []);
		assert.deepEqual(page.pageErrors, []);
	});

	it('goes to the request a prune was first sent with, by keyboard', async () => {
		({ dir, page } = await openSession());
		await openCosts(page);
		const button = page.page.locator('table.prunes tbody tr').nth(2).locator('button');
		const label = await button.innerText();
		const request = Number(/request (\d+)/.exec(label)?.[1]);
		assert.ok(request > 1);
		await button.focus();
		await page.page.keyboard.press('Enter');
		const highlighted = page.page.locator('table.requests tr.highlight');
		assert.equal(await highlighted.count(), 1);
		assert.equal(await highlighted.locator('th').innerText(), String(request));
		assert.equal(await highlighted.evaluate((row) => row === (row.ownerDocument as { activeElement: unknown }).activeElement), true, 'focus moved to the row');
	});

	it('stays open when the page is loaded again, and is closed by its button', async () => {
		let source: SessionFileSource;
		({ dir, source, page } = await openSession());
		await openCosts(page);
		const state = await page.page.evaluate(() => (globalThis as unknown as { __savedState?: { costs?: boolean } }).__savedState);
		assert.equal(state?.costs, true, 'the page saved that the panel is open');
		await page.close();
		page = await WebviewPage.open(source, { savedState: state, viewport: { width: 1400, height: 900 } });
		const report = await page.waitForReport((r) => r.cause === 'costs' && (r.values['costs.prunes'] ?? -1) >= 0);
		assert.equal(report.values['costs.requests'], 17);
		assert.equal(await page.page.locator('section.costs').isVisible(), true);
		await page.page.locator('[data-control="costs"]').click();
		assert.equal(await page.page.locator('section.costs').isHidden(), true);
		assert.equal(await page.page.locator('main.content').isVisible(), true);
		assert.deepEqual(page.fromPage.filter((message) => message.type === 'showCosts').at(-1), { type: 'showCosts', shown: false });
	});

	it('never holds the page\'s other answers while the costs are worked out', async () => {
		let release: () => void = () => undefined;
		let holding = false;
		const held = new Promise<void>((resolve) => {
			release = resolve;
		});
		let source: SessionFileSource;
		({ dir, source, page } = await openSession({ hold: (message) => (holding && message.type === 'costs' ? held : undefined) }));
		await openCosts(page);
		// The session read again: a new snapshot, whose costs the host works out and cannot post yet.
		holding = true;
		const snapshot = page.nextReport((r) => r.cause === 'snapshot');
		await source.reload();
		await snapshot;
		try {
			const raw = page.nextReport((r) => r.cause === 'view' && r.view === 'before', 10_000);
			await page.page.locator('vscode-button[data-control="view-before"]').click();
			assert.equal((await raw).view, 'before', 'the other view came while the costs were held');
		} finally {
			release();
		}
	});

	it('shows a model name that carries markup as text', async () => {
		const ran: string[] = [];
		const payload = '<img src=x onerror=__xssSentinel(\'costs-model\')><a href="command:workbench.action.terminal.new">x</a>';
		({ dir, page } = await openSession({ modelName: payload, sentinel: (id) => ran.push(id) }));
		await openCosts(page);
		const cell = page.page.locator('table.requests tbody tr[data-request] td').nth(1);
		assert.equal(await cell.innerText(), `fake/${payload}`);
		assert.equal(await page.page.locator('section.costs img, section.costs a').count(), 0);
		assert.deepEqual(ran, []);
	});

	for (const theme of ['dark', 'light'] as const satisfies readonly ThemeName[]) {
		it(`has no serious or critical axe violation, open, in the ${theme} theme`, async () => {
			({ dir, page } = await openSession({ theme }));
			await openCosts(page);
			assert.deepEqual(await seriousViolations(page), []);
		});
	}
});

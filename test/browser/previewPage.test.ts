/**
 * The real preview bundle in headless Chromium, in the panel's own HTML and CSP, fed by the host's
 * protocol logic (`PageHost`) over a session written by real pi-condense: what the page shows
 * equals the engine's figures, and clicks, search, hover, what-if and reload behave.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { charsToTokens, contextBreakdownSteps, previewContextSteps } from '../../src/engine/condense';
import { getBranchSteps, buildSessionContextSteps } from '../../src/engine/session';
import type { RenderReport } from '../../src/shared/protocol';
import { referenceAgentDir, type ReferenceAgentDir } from '../support/referenceAgentDir';
import { SessionFileSource } from '../support/sessionFileSource';
import { waitFor, WebviewPage } from '../support/webviewPage';
import { R200 } from '../support/releases';
import { runSteps } from '../../src/engine/steps';

const PRICING = { provider: 'fake', modelId: 'fake-model', name: 'Fake', contextWindow: 200_000, cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };

describe('the preview page in Chromium, on a session written by real pi-condense', function () {
	this.timeout(90_000);
	let dir: ReferenceAgentDir;
	let source: SessionFileSource;
	let page: WebviewPage;

	before(async () => {
		dir = referenceAgentDir('basic');
		source = new SessionFileSource(dir.sessionFile, dir.agentDir, R200, PRICING);
		await source.reload();
		page = await WebviewPage.open(source);
	});

	after(async () => {
		await page?.close();
		dir?.cleanup();
	});

	const snapshotReport = (): Promise<RenderReport> => page.waitForReport((r) => r.cause === 'snapshot');

	it('shows the rendered context with the engine\'s figures', async () => {
		const report = await snapshotReport();
		const session = source.current();
		assert.ok(session);
		const engine = runSteps(previewContextSteps(runSteps(getBranchSteps(session.model)), runSteps(buildSessionContextSteps(session.model)).messages, session.config, session.rules));
		const before = runSteps(contextBreakdownSteps(engine.before));
		const after = runSteps(contextBreakdownSteps(engine.after));
		assert.equal(report.view, 'after');
		assert.equal(report.rowCount, engine.after.length);
		assert.equal(report.figures.status, engine.statusText);
		assert.equal(report.values['totals.before'], charsToTokens(before.total));
		assert.equal(report.values['totals.after'], charsToTokens(after.total));
		assert.equal(report.values['messages.after'], engine.after.length);
		for (const category of ['toolResults', 'thinking', 'compressedChains', 'summaries'] as const) {
			assert.equal(report.values[`bar.${category}.before`], charsToTokens(before[category]), category);
			assert.equal(report.values[`bar.${category}.after`], charsToTokens(after[category]), category);
		}
		assert.equal(report.values['usage.input'], 1255);
		assert.equal(report.values['cache.break'], 14, 'nothing was pruned since the last call: the cache holds up to the new reply');
		assert.deepEqual(await page.violations(), []);
		assert.deepEqual(page.pageErrors, []);
	});

	it('keeps session text out of markup and marks stubs, chains and summaries', async () => {
		await snapshotReport();
		const rows = await page.page.locator('.row').evaluateAll((nodes) => nodes.map((n) => ({ index: (n as unknown as { dataset: { index: string } }).dataset.index, text: n.textContent })));
		assert.ok(rows.length >= 10);
		assert.ok(rows.some((r) => /^#\d+Compressed chainb1\d+ calls? dropped/.test(r.text ?? '') && /<compressed-chain id="b1" tools="t1,t2,t3,t4">/.test(r.text ?? '')), 'the chain row says "Compressed chain", "b1" and what it dropped, each once');
		assert.equal(await page.page.locator('.badge-alias').first().textContent(), 'alias → t4');
		assert.equal(await page.page.locator('.badge-stub').first().textContent(), 'stub t8');
	});

	it('switches to the raw context before pruning and back', async () => {
		await snapshotReport();
		const toRaw = page.nextReport((r) => r.cause === 'view' && r.view === 'before');
		await page.page.click('vscode-button[data-control="view-before"]');
		const raw = await toRaw;
		assert.equal(raw.rowCount, 29);
		assert.ok(await page.page.locator('.badge-dropped').count() > 0, 'messages a chain dropped are marked in the raw view');
		const back = page.nextReport((r) => r.cause === 'view' && r.view === 'after');
		await page.page.click('vscode-button[data-control="view-after"]');
		assert.equal((await back).rowCount, 15);
	});

	it('shows the raw output of a ref on hover and opens it on click, through the host', async () => {
		await snapshotReport();
		const ref = page.page.locator('.row .ref[data-ref="t8"]').first();
		await ref.hover();
		const tooltip = page.page.locator('.ref-tooltip');
		await tooltip.locator('pre').filter({ hasText: '## toolRef: t8' }).waitFor({ timeout: 10_000 });
		const expected = await source.recover(['t8']);
		assert.equal(await tooltip.locator('pre').textContent(), expected);
		await ref.click();
		await waitFor(() => source.opened.includes('t8'));
		await page.page.locator('.row .ref[data-ref="b2"]').first().click();
		await waitFor(() => page.blocksOpened.includes('b2'));
		assert.ok(page.fromPage.some((m) => m.type === 'recover' && m.ref === 't8'));
	});

	it('searches the full texts, stepping through matches', async () => {
		await snapshotReport();
		const field = page.page.locator('vscode-textfield[data-control="search"] input');
		const searched = page.nextReport((r) => r.cause === 'search' && r.searchHits > 0);
		await field.fill('sayHello');
		const report = await searched;
		assert.ok(report.highlights > 0);
		assert.match(await page.page.locator('.hit-count').textContent() ?? '', /^1 \/ \d+$/);
		const next = page.nextReport((r) => r.cause === 'search' || r.cause === 'expand');
		await page.page.click('vscode-button[data-control="search-next"]');
		await next;
		assert.match(await page.page.locator('.hit-count').textContent() ?? '', /^2 \/ \d+$/);
		const cleared = page.nextReport((r) => r.cause === 'search' && r.searchHits === 0);
		await field.fill('');
		assert.equal((await cleared).highlights, 0);
	});

	it('finds a match past what a row shows and expands that row to show it', async () => {
		await snapshotReport();
		const raw = page.nextReport((r) => r.cause === 'view' && r.view === 'before');
		await page.page.click('vscode-button[data-control="view-before"]');
		await raw;
		// The last line of a 5 KB log: only in the full text of the raw tool result.
		const field = page.page.locator('vscode-textfield[data-control="search"] input');
		const expanded = page.nextReport((r) => r.cause === 'expand' && r.expanded.length > 0);
		await field.fill('items/61 status=504');
		const report = await expanded;
		assert.equal(report.searchHits, 1);
		assert.equal(await page.page.locator('mark.hit.current').textContent(), 'items/61 status=504');
		const key = report.expanded[0]?.replace(/^before:/, '') ?? '';
		const collapsed = page.nextReport((r) => r.cause === 'expand' && r.expanded.length === 0);
		await page.page.locator(`.row[data-key="${key}"] [data-action="collapse"]`).click();
		await collapsed;
		const again = page.nextReport((r) => r.cause === 'expand' && r.expanded.includes(`before:${key}`));
		await page.page.locator(`.row[data-key="${key}"] [data-action="expand"]`).click();
		await again;
		await field.fill('');
		const back = page.nextReport((r) => r.cause === 'view' && r.view === 'after');
		await page.page.click('vscode-button[data-control="view-after"]');
		await back;
	});

	it('recomputes for a what-if change without writing, and applies it to Pi\'s settings', async () => {
		const current = await snapshotReport();
		const settingsBefore = readFileSync(join(dir.agentDir, 'settings.json'), 'utf8');
		const changed = page.nextReport((r) => r.cause === 'snapshot' && r.whatIfChanges === 1);
		await page.page.locator('vscode-textfield[data-control="whatif-window"] input').fill('0');
		const report = await changed;
		assert.ok((report.values['totals.after'] ?? 0) < (current.values['totals.after'] ?? 0), 'compressing one more chain reclaims more');
		assert.ok((report.values['cache.break'] ?? 99) < 14, 'and breaks the cache earlier');
		assert.match(report.figures['whatIf.changes'] ?? '', /chainCompression\.rollingWindow = 0/);
		assert.equal(readFileSync(join(dir.agentDir, 'settings.json'), 'utf8'), settingsBefore, 'nothing written yet');
		const applied = page.nextReport((r) => r.cause === 'snapshot' && r.whatIfChanges === 0);
		await page.page.click('vscode-button[data-control="whatif-apply"]');
		await applied;
		const settings = JSON.parse(readFileSync(join(dir.agentDir, 'settings.json'), 'utf8')) as { contextPrune: { chainCompression: { rollingWindow: number; enabled: boolean } } };
		assert.equal(settings.contextPrune.chainCompression.rollingWindow, 0);
		assert.equal(settings.contextPrune.chainCompression.enabled, true, 'other keys kept');
		assert.deepEqual(source.applied.at(-1), [{ key: 'chainCompression.rollingWindow', value: 0 }]);
	});

	it('restores its view, search and scroll from the saved state after a reload', async () => {
		const raw = page.nextReport((r) => r.cause === 'view' && r.view === 'before');
		await page.page.click('vscode-button[data-control="view-before"]');
		await raw;
		// Each report is waited for from before what causes it: it may come before the action's own reply does.
		const scrolledTo = page.nextReport((r) => r.cause === 'scroll');
		await page.page.locator('.list-scroller').evaluate((node) => {
			(node as unknown as { scrollTop: number }).scrollTop = 400;
		});
		await scrolledTo;
		const saved = await page.page.evaluate(() => (globalThis as unknown as { __savedState: unknown }).__savedState) as { view: string; anchor?: { key: string } };
		assert.equal(saved.view, 'before');
		assert.ok(saved.anchor && saved.anchor.key !== 'm0', 'the scroll anchor is saved');
		const reopened = await WebviewPage.open(source, { savedState: saved });
		try {
			const report = await reopened.waitForReport((r) => r.cause === 'restore');
			assert.equal(report.view, 'before');
			assert.equal(report.topKey, saved.anchor.key, 'scrolled back to the same row');
		} finally {
			await reopened.close();
		}
	});

	it('follows the session live, keeping the scroll position', async () => {
		// Scrolled only once the sent view is shown: a scroll that lands before the switch is undone by it.
		const sent = page.nextReport((r) => r.cause === 'view' && r.view === 'after');
		await page.page.click('vscode-button[data-control="view-after"]');
		await sent;
		const settled = page.nextReport((r) => r.cause === 'scroll' && r.view === 'after');
		await page.page.locator('.list-scroller').evaluate((node) => {
			(node as unknown as { scrollTop: number }).scrollTop = 300;
		});
		const scrolled = await settled;
		assert.ok(scrolled.topKey !== undefined && scrolled.topKey !== 'm0');
		const updated = page.nextReport((r) => r.cause === 'snapshot');
		const at = Date.parse('2026-11-30T06:40:00.000Z');
		appendFileSync(dir.sessionFile, `${JSON.stringify({
			type: 'message', id: 'a1b2c3d4', parentId: 'c9291328', timestamp: new Date(at).toISOString(),
			message: { role: 'user', content: [{ type: 'text', text: 'One more question' }], timestamp: at },
		})}\n`);
		await source.reload();
		const report = await updated;
		assert.equal(report.rowCount, scrolled.rowCount + 1, 'the new message is shown');
		assert.equal(report.topKey, scrolled.topKey, 'the list did not jump');
	});
});

describe('the preview page when a killed flush left chains for compact', function () {
	this.timeout(90_000);
	let dir: ReferenceAgentDir;

	after(() => dir?.cleanup());

	it('says how many chains can be compacted, and its Compact button asks the host for compact', async () => {
		dir = referenceAgentDir('basic');
		// The basic session as a flush killed before its last chain entry left it: its stats and chain
		// lines gone, the agent's reply chained to the last line that made it.
		const lines = readFileSync(dir.sessionFile, 'utf8').trimEnd().split('\n');
		const entries = lines.map((line) => JSON.parse(line) as { id?: string; parentId?: string; customType?: string });
		const chainAt = entries.map((entry) => entry.customType).lastIndexOf('context-prune-chain');
		assert.equal(entries[chainAt + 1]?.customType, 'context-prune-stats');
		const reply = { ...entries[chainAt + 2], parentId: entries[chainAt - 1]?.id };
		writeFileSync(dir.sessionFile, `${[...lines.slice(0, chainAt), JSON.stringify(reply), ...lines.slice(chainAt + 3)].join('\n')}\n`);
		const source = new SessionFileSource(dir.sessionFile, dir.agentDir, R200, PRICING, true);
		await source.reload();
		const page = await WebviewPage.open(source);
		try {
			const report = await page.waitForReport((r) => r.cause === 'snapshot');
			assert.equal(report.figures.compactable, '1 chain can be compacted: pi-condense compresses chains only at the end of a flush that summarizes a batch.');
			await page.page.click('vscode-button[data-control="compact"]');
			await waitFor(() => source.compactRequests === 1);
			assert.deepEqual(await page.violations(), []);
		} finally {
			await page.close();
		}
	});
});

/**
 * A 10,000-message session in the real preview bundle (headless Chromium): the list is virtualized,
 * so the DOM stays bounded at first paint, in the raw view with all 10,000 rows, and while
 * scrolling from top to bottom. Times are printed by `npm run bench`, never asserted.
 */
import assert from 'node:assert/strict';
import { prunedSyntheticAgentDir } from '../support/prunedSyntheticSession';
import { SessionFileSource } from '../support/sessionFileSource';
import { WebviewPage } from '../support/webviewPage';
import { R200 } from '../support/releases';

const MAX_NODES = 3000;

describe('the preview page on a 10,000-message session', function () {
	this.timeout(180_000);
	let fixture: ReturnType<typeof prunedSyntheticAgentDir>;
	let page: WebviewPage;

	before(async () => {
		fixture = prunedSyntheticAgentDir({ contextMessages: 10_000, maxOutputChars: 1500 });
		// Our flush's 2.0.0-shaped entries, with a thinking strip in the settings: 2.0.0 reads both.
		const source = new SessionFileSource(fixture.sessionFile, fixture.agentDir, R200);
		await source.reload();
		page = await WebviewPage.open(source, { viewport: { width: 1280, height: 900 } });
	});

	after(async () => {
		await page?.close();
		fixture?.cleanup();
	});

	it('paints the pruned context with a bounded DOM', async () => {
		const report = await page.waitForReport((r) => r.cause === 'snapshot', 60_000);
		assert.equal(report.values['messages.before'], 10_000);
		assert.ok(report.rowCount > 100, `${report.rowCount} rows sent`);
		assert.ok(report.domNodes <= MAX_NODES, `${report.domNodes} nodes`);
		assert.ok(report.renderedRows.length < 80, `${report.renderedRows.length} rows in the DOM`);
	});

	it('keeps the DOM bounded in the raw view of all 10,000 messages, scrolling top to bottom', async () => {
		const raw = page.nextReport((r) => r.cause === 'view' && r.view === 'before', 60_000);
		await page.page.click('vscode-button[data-control="view-before"]');
		const report = await raw;
		assert.equal(report.rowCount, 10_000);
		assert.ok(report.domNodes <= MAX_NODES, `${report.domNodes} nodes`);
		const counts = await page.scrollThrough(40);
		assert.equal(counts.length, 41);
		assert.ok(Math.max(...counts.map((c) => c.nodes)) <= MAX_NODES, `max ${Math.max(...counts.map((c) => c.nodes))} nodes`);
		assert.ok(counts.at(-1)?.rows.includes(9_999), 'the last row is reached');
		assert.ok(counts.every((c) => c.rows.length > 0 && c.rows.length < 80), 'every screen shows some rows, never all');
	});
});

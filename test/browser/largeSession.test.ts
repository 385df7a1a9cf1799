/**
 * A 10,000-message session in the real preview bundle (headless Chromium): the list is virtualized,
 * so the DOM stays bounded at first paint, in the raw view with all 10,000 rows, and while
 * scrolling from top to bottom; and the rows come on demand: the page holds a window of them,
 * shows placeholders where it scrolls to, asks the host for those rows and shows them when they
 * arrive. Times are printed by `npm run bench`, never asserted.
 */
import assert from 'node:assert/strict';
import { buildSessionContextSteps } from '../../src/engine/session';
import type { ToWebview } from '../../src/shared/protocol';
import { prunedSyntheticAgentDir } from '../support/prunedSyntheticSession';
import { SessionFileSource } from '../support/sessionFileSource';
import { WebviewPage } from '../support/webviewPage';
import { R200 } from '../support/releases';
import { runSteps } from '../../src/engine/steps';

const MAX_NODES = 3000;
const ROWS = 10_000;

describe('the preview page on a 10,000-message session', function () {
	this.timeout(180_000);
	let fixture: ReturnType<typeof prunedSyntheticAgentDir>;
	let source: SessionFileSource;
	let page: WebviewPage;

	before(async () => {
		fixture = prunedSyntheticAgentDir({ contextMessages: ROWS, maxOutputChars: 1500 });
		// Our flush's 2.0.0-shaped entries, with a thinking strip in the settings: 2.0.0 reads both.
		source = new SessionFileSource(fixture.sessionFile, fixture.agentDir, R200);
		await source.reload();
		page = await WebviewPage.open(source, { viewport: { width: 1280, height: 900 } });
	});

	after(async () => {
		await page?.close();
		fixture?.cleanup();
	});

	/** The rows the host posted to the page, snapshot windows and answers alike. */
	const rowsPosted = (): number => page.posted.reduce((sum, message) => sum + postedRows(message), 0);

	it('paints the pruned context with a bounded DOM', async () => {
		const report = await page.waitForReport((r) => r.cause === 'snapshot', 60_000);
		assert.equal(report.values['messages.before'], ROWS);
		assert.ok(report.rowCount > 100, `${report.rowCount} rows sent`);
		assert.ok(report.domNodes <= MAX_NODES, `${report.domNodes} nodes`);
		assert.ok(report.renderedRows.length > 0 && report.renderedRows.length < 80, `${report.renderedRows.length} rows in the DOM`);
	});

	it('keeps the DOM bounded in the raw view of all 10,000 messages, scrolling top to bottom', async () => {
		const raw = page.nextReport((r) => r.cause === 'view' && r.view === 'before', 60_000);
		await page.page.click('vscode-button[data-control="view-before"]');
		const report = await raw;
		assert.equal(report.rowCount, ROWS);
		assert.ok(report.domNodes <= MAX_NODES, `${report.domNodes} nodes`);
		assert.ok(report.renderedRows.length > 0 && report.renderedRows[0] === 0, 'the first rows came with the snapshot');
		const counts = await page.scrollThrough(40);
		assert.equal(counts.length, 41);
		assert.ok(Math.max(...counts.map((c) => c.nodes)) <= MAX_NODES, `max ${Math.max(...counts.map((c) => c.nodes))} nodes`);
		assert.ok(counts.every((c) => c.rows.length < 80), 'never all rows in the DOM');
		// The last jump's end moves once the rows that arrive are measured (a placeholder has a fixed
		// height; the page keeps its top row in place): at the end again, the last row shows.
		await page.scrollTo(1);
		await page.waitForRows((rows) => rows.includes(ROWS - 1));
		assert.deepEqual(page.pageErrors, []);
	});

	it('asks for the rows it scrolls to: the middle and the end arrive, and the page never holds them all', async () => {
		await page.scrollTo(0);
		await page.waitForRows((rows) => rows.includes(0));
		const requestsBefore = page.fromPage.filter((m) => m.type === 'rows').length;
		await page.scrollTo(0.5);
		const middle = await page.waitForRows((rows) => rows.length > 0 && (rows[0] ?? 0) > 2000);
		assert.ok((middle[0] ?? 0) < 8000 && (middle.at(-1) ?? ROWS) < 8000, `rows of the middle shown: ${middle.join(', ')}`);
		assert.equal(await page.page.locator(`.row[data-index="${middle[0]}"] .row-index`).textContent(), `#${middle[0]}`);
		await page.scrollTo(1);
		const end = await page.waitForRows((rows) => rows.includes(ROWS - 1));
		assert.ok(end.every((index) => index > ROWS - 100), `rows of the end shown: ${end.join(', ')}`);
		const requests = page.fromPage.slice(requestsBefore).flatMap((m) => m.type === 'rows' ? [m] : []);
		assert.ok(requests.length > 0, 'the page asked for rows');
		const snapshotId = page.posted.flatMap((m) => m.type === 'snapshot' ? [m.snapshot.snapshotId] : []).at(-1);
		assert.ok(requests.every((r) => r.view === 'before' && r.snapshotId === snapshotId && r.end > r.start), 'for the raw view of the snapshot it holds');
		assert.ok(rowsPosted() < ROWS, `${rowsPosted()} rows posted in all, fewer than the view's ${ROWS}`);
		assert.deepEqual(page.pageErrors, []);
	});

	it('keeps the rows on screen through a new snapshot: the host places its rows around the page\'s top row', async () => {
		// Waited for from before the jump: the report comes once scrolling settles, maybe before the rows are seen here.
		const settling = page.nextReport((r) => r.cause === 'scroll' && r.view === 'before' && (r.renderedRows[0] ?? 0) > 1000);
		await page.scrollTo(0.3);
		await page.waitForRows((rows) => rows.length > 0 && (rows[0] ?? 0) > 1000);
		const settled = await settling;
		assert.ok(page.fromPage.some((m) => m.type === 'viewport' && m.key === settled.topKey), 'the page said which row is at the top');
		const updated = page.nextReport((r) => r.cause === 'snapshot', 60_000);
		await source.reload();
		const report = await updated;
		assert.equal(report.view, 'before');
		assert.equal(report.topKey, settled.topKey, 'the same row at the top');
		assert.deepEqual(report.renderedRows, settled.renderedRows, 'shown at once, from the snapshot\'s own rows');
	});

	it('goes to a search match far past the rows it holds, and marks it once its row arrived', async () => {
		await page.scrollTo(0);
		await page.waitForRows((rows) => rows.includes(0));
		// The text of a late prompt: only there, far below the rows the page holds at the top.
		const session = source.current();
		assert.ok(session);
		const messages = runSteps(buildSessionContextSteps(session.model)).messages;
		const target = messages.map((message) => message.role).lastIndexOf('user');
		const prompt = messages[target];
		const first = prompt?.role === 'user' && typeof prompt.content !== 'string' ? prompt.content[0] : undefined;
		const text = first?.type === 'text' ? first.text.slice(0, 60) : '';
		assert.ok(target > ROWS / 2 && text.length === 60, `row ${target}: ${text}`);
		const field = page.page.locator('vscode-textfield[data-control="search"] input');
		const found = page.nextReport((r) => r.cause === 'search' && r.searchHits > 0, 30_000);
		await field.fill(text);
		const report = await found;
		assert.ok(report.renderedRows.includes(target), `row ${target} shown: ${report.renderedRows.join(', ')}`);
		assert.equal(await page.page.locator(`.row[data-index="${target}"] mark.hit.current`).textContent(), text);
		const cleared = page.nextReport((r) => r.cause === 'search' && r.searchHits === 0);
		await field.fill('');
		await cleared;
	});

	it('reveals a row far down, with its rows', async () => {
		await page.scrollTo(0);
		await page.waitForRows((rows) => rows.includes(0));
		const revealed = page.nextReport((r) => r.cause === 'reveal', 30_000);
		const session = source.current();
		const entryId = session?.model.entries.filter((entry) => entry.type === 'message').at(-30)?.id;
		assert.ok(entryId);
		await page.reveal(entryId);
		const report = await revealed;
		const reveal = page.posted.filter((m) => m.type === 'reveal').at(-1);
		assert.ok(reveal?.type === 'reveal' && reveal.index > 1000, `row ${reveal?.type === 'reveal' ? reveal.index : '?'}: far past the first window of the view`);
		assert.equal(report.view, reveal.view);
		assert.ok(report.renderedRows.includes(reveal.index), `row ${reveal.index} shown: ${report.renderedRows.join(', ')}`);
	});

	it('comes back after a reload to a saved top row far down', async () => {
		const saved = { sessionPath: source.path, view: 'before', overrides: {}, anchor: { key: 'm8123', offset: 0 }, query: '', expanded: [] };
		const reopened = await WebviewPage.open(source, { savedState: saved, viewport: { width: 1280, height: 900 } });
		try {
			const report = await reopened.waitForReport((r) => r.cause === 'restore', 60_000);
			assert.equal(report.view, 'before');
			assert.equal(report.topKey, 'm8123');
			assert.ok(report.renderedRows.includes(8123));
		} finally {
			await reopened.close();
		}
	});
});

function postedRows(message: ToWebview): number {
	switch (message.type) {
		case 'snapshot':
			return message.snapshot.window.rows.length;
		case 'rows':
		case 'reveal':
			return message.window.rows.length;
		default:
			return 0;
	}
}

/**
 * The preview by keyboard, in the real bundle in Chromium: the message list is one tab stop with a
 * roving focus (the active message); Up and Down move by one message, Home, End, Page Up and Page
 * Down jump on the first press (the list is virtualized: the row is rendered, then focused); Right
 * enters a message's refs and buttons, none of which is a tab stop of its own; every input of the
 * page has a name.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { pendingAgentDir, type PendingAgentDir } from '../support/pendingSession';
import { LATEST } from '../support/releases';
import { SessionFileSource } from '../support/sessionFileSource';
import { WebviewPage } from '../support/webviewPage';

/** The focused element's row index (-1 outside a row) and what it is. */
function focused(page: Page): Promise<{ readonly row: number; readonly isRow: boolean; readonly className: string }> {
	return page.evaluate(() => {
		const active = (globalThis as unknown as { document: { activeElement: { closest(s: string): { dataset: { index: string } } | null; className: string } | null } }).document.activeElement;
		const row = active?.closest('.row');
		return { row: row ? Number(row.dataset.index) : -1, isRow: row === active, className: String(active?.className ?? '') };
	});
}

describe('the preview page by keyboard', function () {
	this.timeout(120_000);
	let dir: PendingAgentDir;
	let page: WebviewPage;
	let rows = 0;

	before(async () => {
		dir = pendingAgentDir(80);
		const source = new SessionFileSource(dir.sessionFile, dir.agentDir, LATEST, undefined, true);
		await source.reload();
		page = await WebviewPage.open(source, { viewport: { width: 1280, height: 700 } });
		// The snapshot with the dry run's estimate (posted again once it ends): the keys are pressed on the page as it stays.
		rows = (await page.waitForReport((r) => r.cause === 'snapshot' && r.values['pending.estimate'] !== undefined)).rowCount;
		assert.ok(rows > 300, `${rows} rows`);
	});

	after(async () => {
		await page?.close();
		dir?.cleanup();
	});

	it('reaches the list with Tab as one stop, and moves by message with the arrows', async () => {
		// The last control above the list: Compact, in the pending-work bar.
		await page.page.locator('vscode-button[data-control="compact"]').focus();
		await page.page.keyboard.press('Tab');
		assert.deepEqual(await focused(page.page), { row: 0, isRow: true, className: 'row kind-user' });
		await page.page.keyboard.press('ArrowDown');
		await page.page.keyboard.press('ArrowDown');
		assert.equal((await focused(page.page)).row, 2);
		await page.page.keyboard.press('ArrowUp');
		assert.equal((await focused(page.page)).row, 1);
		const stops = await page.page.locator('.list-scroller [tabindex="0"], .list-scroller a[href]:not([tabindex="-1"]), .list-scroller button:not([tabindex="-1"])').count();
		assert.equal(stops, 1, 'one tab stop in the whole list: the active message');
	});

	it('jumps with End, Home, Page Down and Page Up on the first press', async () => {
		await page.page.keyboard.press('End');
		await waitForFocus(page.page, rows - 1);
		await page.page.keyboard.press('Home');
		await waitForFocus(page.page, 0);
		// A row off screen is focused once it is rendered: each press is read once the focus has left the row it was on.
		await page.page.keyboard.press('PageDown');
		const down = await focusLeaves(page.page, 0);
		assert.ok(down > 1, `Page Down moved to the last message on screen: ${down}`);
		await page.page.keyboard.press('PageDown');
		const further = await focusLeaves(page.page, down);
		assert.ok(further > down, `a second Page Down moved a screen further: ${further}`);
		await page.page.keyboard.press('PageUp');
		const up = await focusLeaves(page.page, further);
		assert.ok(up < further && up > 0, `Page Up moved to the first message on screen: ${up}`);
		await page.page.keyboard.press('Home');
		await waitForFocus(page.page, 0);
	});

	it('enters a message\'s buttons with Right, none of them a tab stop, and leaves them with Escape', async () => {
		const stubRow = await page.page.locator('.row [data-action]').first().evaluate((ref) => Number((ref as unknown as { closest(s: string): { dataset: { index: string } } }).closest('.row').dataset.index));
		await page.page.keyboard.press('Home');
		await waitForFocus(page.page, 0);
		for (let i = 0; i < stubRow; i++) {
			await page.page.keyboard.press('ArrowDown');
		}
		await waitForFocus(page.page, stubRow);
		await page.page.keyboard.press('ArrowRight');
		const inner = await focused(page.page);
		assert.equal(inner.row, stubRow);
		assert.equal(inner.isRow, false, 'focus went into the message');
		assert.equal(await page.page.evaluate(() => (globalThis as unknown as { document: { activeElement: { tabIndex: number } } }).document.activeElement.tabIndex), -1);
		await page.page.keyboard.press('Escape');
		assert.deepEqual(await focused(page.page), { ...(await focused(page.page)), row: stubRow, isRow: true });
		const innerStops = await page.page.locator('.list-scroller .row [data-action]:not([tabindex="-1"])').count();
		assert.equal(innerStops, 0, 'no button of a message is a tab stop');
	});

	it('drops a jump whose row was not drawn yet when the keyboard goes elsewhere meanwhile', async () => {
		// In VS Code the keyboard leaves for the Command Palette or a quick pick, which closes when the focus is
		// pulled back; here it leaves for the page's search field, in the same turn as End, before End's row is drawn.
		await page.page.keyboard.press('Home');
		await waitForFocus(page.page, 0);
		const drawn = page.nextReport((report) => report.cause === 'scroll' && report.renderedRows.includes(rows - 1));
		await page.page.evaluate(() => {
			const doc = (globalThis as unknown as { document: { activeElement: { dispatchEvent(event: unknown): void } | null; querySelector(s: string): { focus(): void } | null } }).document;
			const KeyEvent = (globalThis as unknown as { KeyboardEvent: new (type: string, init: { key: string; bubbles: boolean }) => unknown }).KeyboardEvent;
			doc.activeElement?.dispatchEvent(new KeyEvent('keydown', { key: 'End', bubbles: true }));
			doc.querySelector('[data-control="search"]')?.focus();
		});
		await drawn;
		const after = await page.page.evaluate(() => (globalThis as unknown as { document: { activeElement: { closest(s: string): unknown } | null } }).document.activeElement?.closest('[data-control="search"]') !== null);
		assert.ok(after, `the keyboard stayed in the search field (focus: ${JSON.stringify(await focused(page.page))})`);
	});

	it('names every input (search, what-if fields) for assistive technology', async () => {
		const unnamed = await page.page.evaluate(() => {
			const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ shadowRoot: { querySelector(s: string): { getAttribute(n: string): string | null } | null } | null; dataset: { control?: string } }> } }).document;
			return Array.from(doc.querySelectorAll('vscode-textfield')).filter((field) => !(field.shadowRoot?.querySelector('input')?.getAttribute('aria-label') ?? '').trim()).map((field) => field.dataset.control ?? '?');
		});
		assert.deepEqual(unnamed, []);
		assert.deepEqual(page.pageErrors, []);
	});
});

async function waitForFocus(page: Page, row: number): Promise<void> {
	await focusWhere(page, (now) => now === row, `row ${row}`);
}

/** The row the focus moves to from `row` (a row, not an element inside one). */
function focusLeaves(page: Page, row: number): Promise<number> {
	return focusWhere(page, (now) => now !== row, `a row other than ${row}`);
}

async function focusWhere(page: Page, wanted: (row: number) => boolean, what: string): Promise<number> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const now = await focused(page);
		if (now.isRow && wanted(now.row)) {
			return now.row;
		}
		if (Date.now() > deadline) {
			throw new Error(`focus is on row ${now.row} (${now.className}), not ${what}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

/**
 * The host's side of the preview protocol does not trust the page: a message that is not one of
 * the protocol's (a compromised page, a stale bundle) is ignored and logged at debug level, and a
 * recovery or an open that fails is answered, so the page shows the failure instead of waiting
 * forever. Real bundle in Chromium, real host logic (`PageHost`), a session by real pi-condense.
 */
import assert from 'node:assert/strict';
import { referenceAgentDir, type ReferenceAgentDir } from '../support/referenceAgentDir';
import { SessionFileSource } from '../support/sessionFileSource';
import { waitFor, WebviewPage } from '../support/webviewPage';
import { R200 } from '../support/releases';

/** The selected session went away between the render and the hover (what the VS Code source then throws). */
class VanishingSource extends SessionFileSource {
	failing = false;

	override recover(refs: readonly string[]): Promise<string> {
		return this.failing ? Promise.reject(new Error('No Pi session is selected.')) : super.recover(refs);
	}

	override openRecovered(ref: string): Promise<void> {
		return this.failing ? Promise.reject(new Error('No Pi session is selected.')) : super.openRecovered(ref);
	}
}

const NOT_THE_PROTOCOL: readonly unknown[] = [
	null,
	'recover',
	42,
	[],
	{},
	{ type: 'format-disk' },
	{ type: 'recover' },
	{ type: 'recover', requestId: '1', ref: 't8' },
	{ type: 'recover', requestId: 1, ref: ['t8'] },
	{ type: 'openRef', ref: { toString: 't8' } },
	{ type: 'showView', view: 'sideways' },
	{ type: 'setWhatIf', overrides: { 'chainCompression.rollingWindow': '0; rm -rf /' } },
	{ type: 'setWhatIf', overrides: null },
	{ type: 'applyWhatIf', overrides: { protectedTools: [1, 2] } },
	{ type: 'applyWhatIf', overrides: { enabled: false } },
	{ type: 'expandRow', requestId: 1, view: 'after', index: 'all', key: 'k' },
	{ type: 'showView', view: 'before', index: -3 },
	{ type: 'rows', requestId: 1, snapshotId: 1, view: 'after', start: -1, end: 5 },
	{ type: 'rows', requestId: 1, snapshotId: 1, view: 'after', start: 0, end: 1.5 },
	{ type: 'rows', requestId: 1, snapshotId: 1, view: 'after', start: 0, end: Infinity },
	{ type: 'rows', requestId: 1, view: 'after', start: 0, end: 10 },
	{ type: 'viewport', view: 'after', key: { toString: 'm3' } },
	{ type: 'search', requestId: 1, view: 'after', query: /x/ },
	{ type: 'rendered', report: { cause: 'snapshot' } },
];

describe('the preview host against messages from the page', function () {
	this.timeout(90_000);
	let dir: ReferenceAgentDir;
	let source: VanishingSource;
	let page: WebviewPage;

	before(async () => {
		dir = referenceAgentDir('basic');
		source = new VanishingSource(dir.sessionFile, dir.agentDir, R200);
		await source.reload();
		page = await WebviewPage.open(source);
		await page.waitForReport((r) => r.cause === 'snapshot');
	});

	after(async () => {
		await page?.close();
		dir?.cleanup();
	});

	it('ignores every message that is not part of the protocol, and logs it at debug level', async () => {
		const posted = page.posted.length;
		for (const message of NOT_THE_PROTOCOL) {
			await page.page.evaluate((value) => (globalThis as unknown as { __piPreviewToHost(m: unknown): void }).__piPreviewToHost(value), message);
		}
		await waitFor(() => page.hostDebug.length >= NOT_THE_PROTOCOL.length);
		assert.equal(page.hostDebug.length, NOT_THE_PROTOCOL.length, page.hostDebug.join('\n'));
		assert.ok(page.hostDebug.every((line) => line.startsWith('preview: ignored a message from the page that is not part of the protocol')), page.hostDebug.join('\n'));
		assert.deepEqual(source.applied, [], 'nothing was written');
		assert.equal(page.posted.length, posted, 'nothing was answered');
		assert.deepEqual(page.pageErrors, []);
		// The page still works.
		const view = page.nextReport((r) => r.cause === 'view' && r.view === 'before');
		await page.page.click('vscode-button[data-control="view-before"]');
		await view;
		const back = page.nextReport((r) => r.view === 'after');
		await page.page.click('vscode-button[data-control="view-after"]');
		await back;
	});

	it('starts afresh from a ready message whose saved state is not a page state', async () => {
		const debugLines = page.hostDebug.length;
		const fresh = page.nextReport((r) => r.cause === 'snapshot');
		await page.page.evaluate(() => (globalThis as unknown as { __piPreviewToHost(m: unknown): void }).__piPreviewToHost({ type: 'ready', state: { sessionPath: 5, view: 'sideways' } }));
		assert.equal((await fresh).view, 'after');
		assert.deepEqual(page.hostDebug.slice(debugLines), ['preview: ignored a message from the page that is not part of the protocol: the saved state of "ready" with type, state']);
	});

	it('shows a failed recovery in the tooltip, instead of "Recovering…" for ever', async () => {
		source.failing = true;
		const ref = page.page.locator('.row .ref[data-ref="t8"]').first();
		await ref.hover();
		const tooltip = page.page.locator('.ref-tooltip');
		await tooltip.locator('pre.error').filter({ hasText: 'Could not recover t8' }).waitFor({ timeout: 10_000 });
		assert.match(await tooltip.locator('pre').textContent() ?? '', /^Could not recover t8: No Pi session is selected\.$/);
		// Hovering again after the session is back asks again (a failure is not kept).
		source.failing = false;
		await page.page.mouse.move(0, 0);
		await tooltip.waitFor({ state: 'hidden' });
		await ref.hover();
		await tooltip.locator('pre').filter({ hasText: '## toolRef: t8' }).waitFor({ timeout: 10_000 });
	});

	it('tells the user when opening a ref fails', async () => {
		source.failing = true;
		await page.page.locator('.row .ref[data-ref="t8"]').first().click();
		await waitFor(() => page.notices.length > 0);
		assert.deepEqual(page.notices, ['Could not open t8: No Pi session is selected.']);
		assert.deepEqual(page.pageErrors.filter((error) => !error.startsWith('host: preview: recovering t8')), [], 'no error on the page');
		source.failing = false;
	});
});

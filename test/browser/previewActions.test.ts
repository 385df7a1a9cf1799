/**
 * A preview that acts, in the real bundle in Chromium fed by the host's protocol logic: on a
 * session pi-condense has never pruned, the page shows its pending batches with what Summarize now
 * would do and reclaim (exactly the engine's dry run of the flush, in the confirmation's words,
 * labelled as an estimate with what it assumes), and both buttons, which ask the host to act; a button that cannot act says why. Before
 * the first snapshot the page shows the skeleton it was served with, and the session's title.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { charsToTokens } from '../../src/engine/condense';
import { pageActions } from '../../src/engine/views/pageActions';
import { basisText, pendingWork, planText } from '../../src/engine/views/estimateText';
import { sha1Hex } from '../../src/node/flush/sha1Hasher';
import type { RenderReport, ToWebview } from '../../src/shared/protocol';
import { pendingAgentDir, type PendingAgentDir } from '../support/pendingSession';
import { repoRoot } from '../support/paths';
import { LATEST } from '../support/releases';
import { SessionFileSource } from '../support/sessionFileSource';
import { waitFor, WebviewPage } from '../support/webviewPage';

describe('the preview page of a session with pending work', function () {
	this.timeout(120_000);
	let dir: PendingAgentDir;
	let source: SessionFileSource;
	let page: WebviewPage;

	before(async () => {
		dir = pendingAgentDir(3);
		source = new SessionFileSource(dir.sessionFile, dir.agentDir, LATEST, undefined, true);
		await source.reload();
		page = await WebviewPage.open(source);
	});

	after(async () => {
		await page?.close();
		dir?.cleanup();
	});

	const snapshot = (): Promise<RenderReport> => page.waitForReport((r) => r.cause === 'snapshot');

	it('shows the pending batches with what the dry run of Summarize now does and reclaims, in the confirmation\'s words, labelled as an estimate', async () => {
		// Posted again once the dry run has ended (the first snapshot says the batches alone while it runs).
		const report = await page.waitForReport((r) => r.cause === 'snapshot' && r.values['pending.estimate'] !== undefined);
		const shown = source.current();
		assert.ok(shown?.derived);
		// The same kept dry run the page's host read: one figure for the bar, the confirmation and the toast.
		const expected = await shown.derived.flushEstimate('now', { hash: sha1Hex }, Date.now());
		const work = pendingWork(expected, LATEST.version);
		assert.ok(work && expected.batches > 5 && expected.reclaimChars > 0, JSON.stringify(expected));
		assert.equal(report.values['pending'], expected.batches);
		assert.equal(report.values['pending.estimate'], charsToTokens(expected.reclaimChars));
		assert.equal(report.figures['pending'], work.pendingText);
		assert.match(report.figures['pending'] ?? '', /^\d+ batches pending \(\d+ tool calls, [\d.]+k? chars of output\)$/);
		assert.equal(report.figures['pending.plan'], `${planText(expected)}.`);
		assert.match(report.figures['pending.plan'] ?? '', /^Summarize now would summarize \d+ batch/);
		assert.equal(report.figures['pending.note'], basisText(expected, LATEST.version));
		assert.match(report.figures['pending.note'] ?? '', /^Estimate: a dry run of pi-condense 2\.9\.1's flush, summaries at 10% of their output \(a typical ratio\)/);
		assert.match(await page.page.locator('.pending-line').textContent() ?? '', /Summarize now would reclaim about [\d.]+k? tokens \([\d.]+k? → [\d.]+k? tokens sent, estimate\)/);
		// The header says what the status bar says for a session with work pending.
		assert.equal(report.figures.status, `prune: ${expected.batches} pending`);
	});

	it('has both buttons, each asking the host to act', async () => {
		await snapshot();
		for (const control of ['summarize-now', 'compact']) {
			assert.equal(await page.page.locator(`vscode-button[data-control="${control}"]`).getAttribute('disabled'), null, control);
		}
		await page.page.click('vscode-button[data-control="summarize-now"]');
		await waitFor(() => source.summarizeRequests === 1);
		await page.page.click('vscode-button[data-control="compact"]');
		await waitFor(() => source.compactRequests === 1);
		assert.ok(page.fromPage.some((message) => message.type === 'summarizeNow'));
		const shots = join(repoRoot, 'screenshots-tmp');
		mkdirSync(shots, { recursive: true });
		await page.page.screenshot({ path: join(shots, 'preview-pending.png') });
	});

	it('disables Summarize now and says why when it cannot act (pruning off, restricted mode)', async () => {
		for (const [actions, why] of [[pageActions('off', true, 9), /Pruning is off/], [pageActions('on', false, 9), /restricted mode/]] as const) {
			source.actions = actions;
			// The snapshot of this reload: the one before it may be posted again once its dry run ends, with its own actions.
			const next = page.nextReport((r) => r.cause === 'snapshot' && why.test(r.figures['actions.reason'] ?? ''));
			await source.reload();
			const report = await next;
			assert.match(report.figures['actions.reason'] ?? '', why);
			assert.equal(await page.page.locator('vscode-button[data-control="summarize-now"]').getAttribute('disabled'), '');
			assert.match(await page.page.locator('vscode-button[data-control="summarize-now"]').getAttribute('title') ?? '', why);
		}
		source.actions = undefined;
		await source.reload();
	});
});

describe('the preview page before its first snapshot', function () {
	this.timeout(120_000);
	let dir: PendingAgentDir;
	let page: WebviewPage;
	let release: () => void = () => undefined;

	after(async () => {
		release();
		await page?.close();
		dir?.cleanup();
	});

	it('is served with a skeleton, and shows it with the session\'s title until the snapshot comes', async () => {
		dir = pendingAgentDir(0);
		const source = new SessionFileSource(dir.sessionFile, dir.agentDir, LATEST, undefined, true);
		await source.reload();
		const held = new Promise<void>((resolve) => {
			release = resolve;
		});
		page = await WebviewPage.open(source, { hold: (message: ToWebview) => (message.type === 'snapshot' ? held : undefined) });
		const served = await (await fetch(`${page.origin}/`)).text();
		assert.match(served, /data-skeleton="page"/);
		assert.equal([...served.matchAll(/class="skeleton-row"/g)].length, 6, 'grey rows from the first paint, before any script');
		await page.page.locator('.skeleton-rows').first().waitFor({ state: 'visible' });
		await waitFor(() => page.posted.some((message) => message.type === 'loading'));
		await page.page.locator('h1.title', { hasText: 'Explore the project.' }).waitFor();
		assert.equal(await page.page.locator('#app').getAttribute('aria-busy'), 'true');
		const paint = await page.page.evaluate(() => (globalThis as unknown as { performance: { getEntriesByType(type: string): { name: string; startTime: number }[] } }).performance.getEntriesByType('paint').map((entry) => `${entry.name} ${entry.startTime.toFixed(0)} ms`));
		console.log(`      skeleton painted: ${paint.join(', ')}`);
		const shots = join(repoRoot, 'screenshots-tmp');
		mkdirSync(shots, { recursive: true });
		await page.page.screenshot({ path: join(shots, 'preview-skeleton.png') });
		release();
		await page.waitForReport((r) => r.cause === 'snapshot');
		assert.equal(await page.page.locator('.skeleton-rows').first().isVisible(), false);
		assert.equal(await page.page.locator('#app').getAttribute('aria-busy'), null);
		assert.ok(await page.page.locator('.row').count() > 0);
		assert.deepEqual(page.pageErrors, []);
	});
});

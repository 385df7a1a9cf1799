/**
 * The Last sent panel of a live session in Chromium (the real page bundle, fed through the host's
 * protocol): the usage Pi recorded for its last reply, and the countdown of the provider's cache,
 * ticked by the page every second. The page's clock is Playwright's, moved by hand: no timed assertion.
 */
import assert from 'node:assert/strict';
import type { LastSentView } from '../../src/shared/protocol';
import { referenceAgentDir, type ReferenceAgentDir } from '../support/referenceAgentDir';
import { R200 } from '../support/releases';
import { SessionFileSource } from '../support/sessionFileSource';
import { WebviewPage } from '../support/webviewPage';

const SENT_AT = Date.UTC(2026, 11, 6, 10, 0, 0);
const MINUTE = 60_000;

const view = (usage: LastSentView['usage']): LastSentView => ({
	pid: 4242, seq: 3, at: SENT_AT, pi: 'Pi 1.6.0 (pid 4242)', model: 'anthropic/claude-sonnet-4-5', messages: 5, systemChars: 1200, payloadChars: 9000,
	comparison: 'match', summary: 'matches the last request (5 messages)', differences: [], orderWarning: undefined, releaseWarning: undefined, usage, previousSeq: undefined,
});

describe('the Last sent panel: the last reply\'s usage and the cache countdown', function () {
	this.timeout(90_000);
	let dir: ReferenceAgentDir;
	let page: WebviewPage;

	before(async () => {
		dir = referenceAgentDir('basic');
		const source = new SessionFileSource(dir.sessionFile, dir.agentDir, R200);
		await source.reload();
		page = await WebviewPage.launch();
		await page.page.clock.install({ time: SENT_AT + MINUTE });
		await page.load(source);
		await page.waitForReport((report) => report.cause === 'snapshot');
		// From here the page's time moves only when a test moves it.
		await page.page.clock.pauseAt(SENT_AT + 2 * MINUTE);
	});

	after(async () => {
		await page?.close();
		dir?.cleanup();
	});

	const usageText = (): Promise<string> => page.page.locator('.last-sent-usage').innerText();

	it('shows the usage and counts the cache down each second, then says it expired', async () => {
		const usage = { text: 'anthropic/claude-sonnet-4-5: 100.0k context (40.0k read from the cache, 60.0k written to it, 2 new) · 10 output · $0.237', ofShownRequest: true, clock: { warmUntil: SENT_AT + 5 * MINUTE, surelyUntil: SENT_AT + 5 * MINUTE, lifetime: 'Anthropic: 5 minutes' } };
		await page.send({ type: 'lastSent', lastSent: view(usage) });
		await page.page.locator('.last-sent-usage').waitFor();
		assert.match(await usageText(), /Its reply: anthropic\/claude-sonnet-4-5: 100\.0k context .* \$0\.237/);
		assert.match(await usageText(), /cache warm for 3:00 more \(Anthropic: 5 minutes\)/);
		await page.page.clock.runFor(61_000);
		assert.match(await usageText(), /cache warm for 1:59 more/);
		await page.page.clock.runFor(3 * MINUTE);
		assert.match(await usageText(), /cache expired 1:01 ago \(Anthropic: 5 minutes\): pruning now costs no extra cache write/);
		assert.deepEqual(await page.violations(), []);
		assert.deepEqual(page.pageErrors, []);
	});

	it('says when the usage is of the reply before the request shown, and drops the countdown with the panel', async () => {
		const usage = { text: 'anthropic/claude-sonnet-4-5: 50.0k context (40.0k read from the cache, 10.0k written to it, 2 new) · 10 output', ofShownRequest: false, clock: { warmUntil: SENT_AT + 10 * MINUTE, surelyUntil: SENT_AT + 10 * MINUTE, lifetime: 'Anthropic: 5 minutes' } };
		await page.send({ type: 'lastSent', lastSent: view(usage) });
		await page.page.getByText('The reply before it').waitFor();
		await page.send({ type: 'lastSent', lastSent: undefined });
		await page.page.locator('.last-sent-usage').waitFor({ state: 'detached' });
		await page.page.clock.runFor(5_000);
		assert.equal(await page.page.locator('.last-sent-usage').count(), 0);
		assert.deepEqual(page.pageErrors, []);
	});
});

/**
 * The preview's Last sent panel, in the real bundle in Chromium: Open request always, and Compare with previous
 * once VS Code keeps the request before the last one; each button asks the host through its own message.
 */
import assert from 'node:assert/strict';
import type { LastSentView } from '../../src/shared/protocol';
import { pendingAgentDir, type PendingAgentDir } from '../support/pendingSession';
import { LATEST } from '../support/releases';
import { SessionFileSource } from '../support/sessionFileSource';
import { waitFor, WebviewPage } from '../support/webviewPage';

const VIEW: LastSentView = {
	pid: 4242, seq: 3, at: Date.UTC(2026, 11, 6, 8), pi: 'Pi 1.6.0 (pid 4242)', model: 'fake/model-1', messages: 5, systemChars: 900, payloadChars: 4000,
	comparison: 'match', summary: 'matches the last request (5 messages)', differences: [], orderWarning: undefined, releaseWarning: undefined, usage: undefined, previousSeq: undefined,
};

describe('the preview\'s Last sent panel', function () {
	this.timeout(120_000);
	let dir: PendingAgentDir;
	let page: WebviewPage;

	before(async () => {
		dir = pendingAgentDir(1);
		const source = new SessionFileSource(dir.sessionFile, dir.agentDir, LATEST, undefined, true);
		await source.reload();
		page = await WebviewPage.open(source);
		await page.waitForReport((report) => report.cause === 'snapshot');
	});

	after(async () => {
		await page?.close();
		dir?.cleanup();
	});

	const button = (control: string) => page.page.locator(`.last-sent vscode-button[data-control="${control}"]`);

	it('offers Open request alone while one request is kept, and Compare with previous beside it once two are', async () => {
		let shown = page.nextReport((report) => report.cause === 'lastSent');
		await page.send({ type: 'lastSent', lastSent: VIEW });
		await shown;
		assert.equal(await button('open-last-sent').count(), 1);
		assert.equal(await button('compare-requests').count(), 0);

		shown = page.nextReport((report) => report.cause === 'lastSent');
		await page.send({ type: 'lastSent', lastSent: { ...VIEW, previousSeq: 2 } });
		await shown;
		assert.equal(await button('compare-requests').count(), 1);
		assert.match(await button('compare-requests').getAttribute('title') ?? '', /^Request 2 and request 3 side by side in VS Code's diff editor/);
		await button('compare-requests').click();
		await waitFor(() => page.fromPage.some((message) => message.type === 'compareRequests'));
		await button('open-last-sent').click();
		await waitFor(() => page.fromPage.some((message) => message.type === 'openLastSent'));
	});
});

/**
 * The real preview bundle in headless Chromium on a session written by real Pi 1.6.0 with real
 * pi-condense 2.9.1 and context edits: the system prompt row and its bar, the edited messages with what
 * their entries say, and the note listing what Pi leaves out.
 */
import assert from 'node:assert/strict';
import { charsToTokens, contextBreakdownSteps, previewContextSteps } from '../../src/engine/condense';
import { buildSessionContextSteps, getBranchSteps } from '../../src/engine/session';
import type { RenderReport } from '../../src/shared/protocol';
import { referenceAgentDir, type ReferenceAgentDir } from '../support/referenceAgentDir';

import { SessionFileSource } from '../support/sessionFileSource';
import { WebviewPage } from '../support/webviewPage';
import { runSteps } from '../../src/engine/steps';
import { releaseRules } from '../../src/engine/release/releases';

describe('the preview page in Chromium, on a Pi 1.6.0 session with context edits', function () {
	this.timeout(90_000);
	let dir: ReferenceAgentDir;
	let source: SessionFileSource;
	let page: WebviewPage;

	before(async () => {
		dir = referenceAgentDir('context-edits-pi-1.6.0');
		source = new SessionFileSource(dir.sessionFile, dir.agentDir, releaseRules('2.9.1'), undefined);
		await source.reload();
		page = await WebviewPage.open(source);
	});

	after(async () => {
		await page?.close();
		dir?.cleanup();
	});

	const snapshotReport = (): Promise<RenderReport> => page.waitForReport((r) => r.cause === 'snapshot');

	it('leads with the system prompt the model is sent, counted in its own bar', async () => {
		const report = await snapshotReport();
		const session = source.current();
		assert.ok(session);
		const engine = runSteps(previewContextSteps(runSteps(getBranchSteps(session.model)), runSteps(buildSessionContextSteps(session.model)).messages, session.config, session.rules));
		const before = runSteps(contextBreakdownSteps(engine.before));
		const after = runSteps(contextBreakdownSteps(engine.after));
		assert.equal(report.rowCount, engine.after.length);
		assert.equal(report.values['bar.system.before'], charsToTokens(before.system));
		assert.equal(report.values['bar.system.after'], charsToTokens(after.system));
		assert.ok((report.values['bar.system.after'] ?? 0) > 1000);
		assert.ok((report.values['session.tokens'] ?? 0) > 4000, 'Pi\'s session totals, its cache-warming usage entry included');
		assert.match(report.figures['session.tokens'] === undefined ? '' : await page.page.locator('.usage').innerText(), /1 usage entry, such as cache warming, included/);
		const first = await page.page.locator('.row').first().textContent();
		assert.match(first ?? '', /System prompt/);
		assert.match(first ?? '', /replayed/);
		assert.deepEqual(await page.violations(), []);
		assert.deepEqual(page.pageErrors, []);
	});

	it('marks the edited messages with what their entries say, and lists the message Pi leaves out', async () => {
		await snapshotReport();
		const notes = await page.page.locator('.edits').textContent();
		assert.match(notes ?? '', /Pi edited this context: 1 message left out, 2 sent with replaced content/);
		assert.match(notes ?? '', /Left out: toolResult \(entry 3e9989cd, context_edit 713e6800\)/);
		await page.page.locator('.list-scroller').evaluate((node) => node.scrollTo({ top: node.scrollHeight }));
		const edited = page.page.locator('.row.has-edited').last();
		await edited.waitFor();
		assert.match(await edited.locator('.edited-origin').textContent() ?? '', /context_edit 7ba37869[\s\S]*Data check: still 0 problems/);
		assert.deepEqual(page.pageErrors, []);
	});
});

/**
 * The preview page on a session whose pi-condense release has a defect that changes what is sent
 * (recovery-2.0.0: 2.0.0 drops a live turn that reuses a compressed chain's tool-call id): the rows
 * show the context as 2.0.0 sends it, and a warning row names the defect and the release fixing it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildSessionContextSteps, parseSessionSteps } from '../../src/engine/session';
import { referenceAgentDir, type ReferenceAgentDir } from '../support/referenceAgentDir';
import { LATEST, R200 } from '../support/releases';
import { SessionFileSource } from '../support/sessionFileSource';
import { WebviewPage } from '../support/webviewPage';
import { runSteps } from '../../src/engine/steps';

describe('the preview page follows the release: defect warnings, what-if controls', function () {
	this.timeout(90_000);
	let dir: ReferenceAgentDir;

	before(() => {
		dir = referenceAgentDir('recovery-2.0.0');
	});

	after(() => {
		dir?.cleanup();
	});

	interface Shown {
		rows: number;
		warnings: number | undefined;
		text: string;
		thinkingControls: boolean;
		releaseLine: string;
		banner: string;
		rawRows: number;
	}

	async function open(rules: typeof R200, followed?: SessionFileSource['followed']): Promise<Shown> {
		const source = new SessionFileSource(dir.sessionFile, dir.agentDir, rules);
		if (followed) {
			source.followed = followed;
		}
		await source.reload();
		const page = await WebviewPage.open(source);
		try {
			const report = await page.waitForReport((r) => r.cause === 'snapshot');
			const text = await page.page.locator('.warnings').innerText();
			const thinkingControls = await page.page.locator('.what-if .thinking-part').isVisible();
			const releaseLine = await page.page.locator('.release').innerText();
			const bannerLocator = page.page.locator('.banner');
			const banner = await bannerLocator.isVisible() ? await bannerLocator.innerText() : '';
			const rawRows = runSteps(buildSessionContextSteps(runSteps(parseSessionSteps(readFileSync(dir.sessionFile, 'utf8'))))).messages.length;
			return { rows: report.rowCount, warnings: report.values['warnings'], text, thinkingControls, releaseLine, banner, rawRows };
		} finally {
			await page.close();
		}
	}

	it('shows 2.0.0\'s 24 messages with a warning row naming the dropped live turn, the fix in 2.6.0', async () => {
		const shown = await open(R200);
		assert.equal(shown.rows, 24);
		assert.equal(shown.warnings, 1);
		assert.match(shown.text, /pi-condense 2\.0\.0 sends this context with 1 known defect/);
		assert.match(shown.text, /drops 2 live message\(s\).*Fixed in pi-condense 2\.6\.0/s);
		assert.equal(shown.thinkingControls, true, '2.0.0 has a thinking strip: the what-if shows its controls');
		assert.equal(shown.releaseLine, 'pi-condense 2.0.0 (test source)', 'the header says which release and where it was found');
		assert.equal(shown.banner, '');
	});

	it('without pi-condense in Pi: Pi\'s own context, a banner saying so and how to install, the header saying not installed', async () => {
		const shown = await open(LATEST, { line: 'pi-condense not installed in Pi (pi install npm:pi-condense)', installed: false });
		assert.equal(shown.rows, shown.rawRows, 'every message of Pi\'s own context, nothing stubbed or dropped');
		assert.match(shown.banner, /Pi has no pi-condense: the model is sent Pi's own context/);
		assert.match(shown.banner, /Install pi-condense in Pi…/);
		assert.equal(shown.releaseLine, 'pi-condense not installed in Pi (pi install npm:pi-condense)');
		assert.equal(shown.warnings, undefined);
	});

	it('shows no warning when the same session is rendered as 2.9.1', async () => {
		const shown = await open(LATEST);
		assert.equal(shown.warnings, undefined);
		assert.equal(shown.text, '');
		assert.ok(shown.rows > 24);
		assert.equal(shown.thinkingControls, false, '2.9.1 has no thinking strip: no controls for it');
	});
});

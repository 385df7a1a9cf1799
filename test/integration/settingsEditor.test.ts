/**
 * `Pi Condense: Settings…` driven through the real quick input with the keyboard, as a person
 * would: filter the list by typing, accept with Enter, type a value (a wrong one first, which the
 * input box refuses with its message), pick a choice, toggle a switch, close with Escape. Every change
 * lands in the contextPrune key of Pi's settings.json at once; the other keys stay.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { settingRows } from '../../src/engine/views/pruneSettingRows';
import { ui } from '../support/workbenchUi';
import { activeApi, contextPruneOnDisk, fixtures, waitUntil } from './helpers';

/** The quick input's text box while its title contains `title`. */
const inputTitled = (title: string): string => `.quick-input-widget:has(.quick-input-title:has-text("${title}")) .quick-input-box input`;

async function choose(title: string, text: string): Promise<void> {
	await ui({ action: 'fill', selector: inputTitled(title), value: text });
	await ui({ action: 'press', selector: inputTitled(title), value: 'Enter' });
}

/** Waits until the workbench holding `selector` shows `text` (validation messages come after a delay). */
async function untilShown(selector: string, text: RegExp, timeoutMs = 10_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!text.test(await ui({ action: 'html', selector }) ?? '')) {
		assert.ok(Date.now() < deadline, `the workbench never showed ${String(text)}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

describe('the settings editor in the quick input', function () {
	this.timeout(90_000);
	let original: Record<string, unknown>;

	before(async () => {
		await activeApi();
		original = contextPruneOnDisk();
		await vscode.commands.executeCommand('notifications.clearAll');
	});

	after(async () => {
		const api = await activeApi();
		await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
		await api.controller.updatePruneSettings(() => original);
	});

	it('saves each setting chosen with the keyboard to Pi\'s settings.json, and Escape closes it', async () => {
		const api = await activeApi();
		const quietBefore = api.controller.config.quietOversizedSkips;
		const otherMode = api.controller.config.batchingMode === 'turn' ? 'Per agent message' : 'Per turn';
		let closed = false;
		const editing = Promise.resolve(vscode.commands.executeCommand('piCondense.settings')).then(() => {
			closed = true;
		});

		// A key the release in use does not read (2.9.1: thinkingStrip) is shown, marked ignored.
		const ignored = settingRows(api.controller.rules).find((row) => row.ignored);
		assert.ok(ignored);
		await ui({ action: 'fill', selector: inputTitled('Pi Condense settings'), value: ignored.label });
		await untilShown('.quick-input-widget', new RegExp(`ignored by pi-condense ${api.controller.rules.version.replace(/\./g, '\\.')}`));

		await choose('Pi Condense settings', 'Spill preview');
		await ui({ action: 'fill', selector: inputTitled('Pi Condense: Spill preview'), value: '-5' });
		await untilShown(inputTitled('Pi Condense: Spill preview'), /Enter a whole number ≥ 0\./);
		await choose('Pi Condense: Spill preview', '1234');
		await waitUntil(() => contextPruneOnDisk()['spillPreviewBytes'] === 1234, 'spillPreviewBytes saved');

		await choose('Pi Condense settings', 'Batching mode');
		await choose('Pi Condense: Batching mode', otherMode);
		await waitUntil(() => api.controller.config.batchingMode === (otherMode === 'Per turn' ? 'turn' : 'agent-message'), 'batchingMode saved and read back');

		await choose('Pi Condense settings', 'Quiet skip notifications');
		await waitUntil(() => contextPruneOnDisk()['quietOversizedSkips'] === !quietBefore, 'quietOversizedSkips toggled');

		assert.equal(closed, false, 'the list opened again after each change');
		await ui({ action: 'press', selector: inputTitled('Pi Condense settings'), value: 'Escape' });
		await editing;
		const settings = JSON.parse(readFileSync(join(fixtures().agentDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
		assert.equal(settings['theme'], 'dark', 'the other keys of settings.json stay');
	});
});

/**
 * The status-bar item shows pi-condense's own status text for the selected session, equal to what the
 * engine computes from the file and Pi's settings; it follows selection and settings changes and hides
 * when Pi's showPruneStatusLine is off.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { engineView } from './engineExpectations';
import { activeApi, fixtures, waitUntil } from './helpers';

describe('the status bar', () => {
	it('shows the engine\'s status text for the selected session', async () => {
		const api = await activeApi();
		const { basic, largeBulk } = fixtures();
		await vscode.commands.executeCommand('piCondense.selectSession', basic.path);
		await waitUntil(() => api.controller.insight() !== undefined, 'the basic session read');
		const expected = engineView(basic.path).statusText;
		// The reclaim depends on the release the extension renders as (2.0.0 wrote this session: 1.1k).
		assert.match(expected, /^prune: ON \u00b7 5\.1k->\d+(\.\d)?k \(-\d+%\)$/);
		await waitUntil(() => api.statusBar.item.text === expected, `status "${expected}" (is "${api.statusBar.item.text}")`);
		assert.equal(api.statusBar.item.command, 'piCondense.openPreview');
		const tooltip = (api.statusBar.item.tooltip as vscode.MarkdownString).value.replace(/\\/g, '');
		assert.match(tooltip, /Session model: fake\/fake-model/);
		assert.match(tooltip, /Summarizer so far: \$0\.000 · 6 calls/);
		assert.match(tooltip, /Nothing pending/);

		await vscode.commands.executeCommand('piCondense.selectSession', largeBulk.path);
		const bulk = engineView(largeBulk.path).statusText;
		await waitUntil(() => api.statusBar.item.text === bulk, `status "${bulk}" for large-bulk (is "${api.statusBar.item.text}")`);
		await vscode.commands.executeCommand('piCondense.selectSession', basic.path);
		await waitUntil(() => api.statusBar.item.text === expected, 'back to the basic session');
	});

	it('says prune: OFF when pruning is off, and hides with showPruneStatusLine off', async () => {
		const api = await activeApi();
		try {
			await vscode.commands.executeCommand('piCondense.disable');
			await waitUntil(() => api.statusBar.item.text === 'prune: OFF', 'prune: OFF');
			await api.controller.updatePruneSettings((raw) => ({ ...raw, showPruneStatusLine: false }));
			await waitUntil(() => api.controller.config.showPruneStatusLine === false, 'the setting read back');
			await waitUntil(() => !api.statusBar.visible, 'the item hidden');
		} finally {
			await api.controller.updatePruneSettings((raw) => ({ ...raw, showPruneStatusLine: true, enabled: true }));
		}
		await waitUntil(() => api.statusBar.visible && api.statusBar.item.text.startsWith('prune: ON'), 'shown, prune: ON again');
	});
});

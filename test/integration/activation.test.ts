/**
 * The extension as VS Code really loads it: present in the extension host, activated once VS Code has started
 * (`onStartupFinished`) with no view of its opened, the status bar showing the workspace's state at once, and its
 * "Pi Sessions" view can be focused. Runs against the temporary agent dir the harness created. Prints the
 * activation time and checks that activation did not load pi-ai.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/host/extensionApi';
// Only the plain helpers: activeApi() would activate the extension, which these tests watch happen.
import { EXTENSION_ID as extensionId, fixtures, waitUntil } from './helpers';

function ourExtension(): vscode.Extension<unknown> {
	const extension = vscode.extensions.getExtension(extensionId);
	assert.ok(extension, `${extensionId} is loaded in the extension host`);
	return extension;
}

describe('activation in a real VS Code extension host', () => {
	it('runs with the temporary Pi agent dir the harness created', () => {
		const agentDir = process.env.PI_CONDENSE_TEST_AGENT_DIR;
		assert.ok(agentDir, 'PI_CONDENSE_TEST_AGENT_DIR reaches the extension host');
		assert.ok(statSync(agentDir).isDirectory());
		assert.equal(process.env.PI_CODING_AGENT_DIR, agentDir);
	});

	it('opens the workspace the harness gave it', () => {
		const folders = vscode.workspace.workspaceFolders ?? [];
		assert.equal(folders.length, 1);
		assert.equal(folders[0]?.uri.fsPath, process.env.PI_CONDENSE_TEST_WORKSPACE);
	});

	it('is present, with its view container and its three views, and activates on startup finished', () => {
		const extension = ourExtension();
		const manifest = extension.packageJSON as { activationEvents: string[]; contributes: { views: Record<string, { id: string; name: string }[]> } };
		assert.ok(manifest.activationEvents.includes('onStartupFinished'), 'present from the start, without any view opened');
		assert.deepEqual(manifest.contributes.views.piCondense?.map((view) => [view.id, view.name]), [
			['piCondense.sessions', 'Pi Sessions'],
			['piCondense.prunedCalls', 'Pruned Calls'],
			['piCondense.costs', 'Pi Costs'],
		]);
	});

	it('activates by itself once VS Code has started, with no Pi Condense view opened, quickly and without loading pi-ai', async () => {
		// Nothing here opens a view: VS Code activates it after startup.
		await waitUntil(() => ourExtension().isActive, `${extensionId} to activate after startup`);
		const api = ourExtension().exports as ExtensionApi;
		console.log(`[integration] activation took ${api.activationMs.toFixed(1)} ms (onStartupFinished, no view opened)`);
		assert.equal(api.sessionsTree.view.visible, false, 'the Pi Sessions view was not opened');
		assert.equal(api.prunedTree.view.visible, false, 'the Pruned Calls view was not opened');
		const piAiChunk = join(ourExtension().extensionPath, 'dist', 'pi-ai.js');
		assert.ok(!Object.keys(require.cache).includes(piAiChunk), 'dist/pi-ai.js is not loaded by activation');
		assert.ok(!Object.keys(require.cache).some((path) => path.includes('@mariozechner/pi-ai')), 'no pi-ai module is loaded');
	});

	it('shows on the status bar, with no view opened, the state of the installed pi-condense and then the workspace\'s session (nothing before it is known)', async () => {
		const api = ourExtension().exports as ExtensionApi;
		// Here, before any later test changes Pi's settings: the first text must be the state the files say at start.
		await waitUntil(() => api.statusBar.visible, 'the status bar item shown');
		assert.match(api.statusBar.shownTexts[0] ?? '', /^prune: ON/, `the first texts shown: ${JSON.stringify(api.statusBar.shownTexts.slice(0, 5))}`);
		// The workspace's newest session is selected and its figures reach the status bar, still without a view.
		await waitUntil(() => api.controller.insight() !== undefined && api.controller.selected === fixtures().basic.path, 'the workspace\'s session on the status bar');
		await waitUntil(() => /^prune: ON .*\d/.test(api.statusBar.item.text), `the session's figures on the status bar (shown: ${JSON.stringify(api.statusBar.shownTexts.slice(0, 5))})`);
		assert.equal(api.sessionsTree.view.visible, false, 'still no Pi Sessions view opened');
	});

	it('selects the newest session of the workspace by itself', async () => {
		const api = ourExtension().exports as ExtensionApi;
		const basic = fixtures().basic.path;
		await waitUntil(() => api.controller.selected === basic, 'the basic session (the workspace\'s only one) selected');
	});

	it('focuses the Pi Sessions view', async () => {
		const commands = await vscode.commands.getCommands(true);
		assert.ok(commands.includes('piCondense.sessions.focus'), 'VS Code registered the view focus command');
		await vscode.commands.executeCommand('piCondense.sessions.focus');
		// The same call for a view nobody contributed fails: the line above really reached a view.
		await assert.rejects(Promise.resolve(vscode.commands.executeCommand('piCondense.noSuchView.focus')));
	});
});

/**
 * One truth for the pruning state, in real VS Code: the status bar, its tooltip, the context
 * preview's header and the session rows say the same thing in each state a user meets: pi-condense
 * installed with pruning on, pruning off, pi-condense not installed, and no session selected. That
 * the status bar is right from the first text it shows (it said "prune: not installed" until a session
 * was selected, though pi-condense was installed) is checked in activation.test.ts, before any test
 * changes Pi's settings.
 */
import assert from 'node:assert/strict';
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/host/extensionApi';
import type { RenderReport } from '../../src/shared/protocol';
import { activeApi, fixtures, nextRenderReport, waitUntil } from './helpers';

interface Surfaces {
	readonly statusBar: string;
	readonly tooltip: string;
	readonly preview: RenderReport;
	readonly row: string;
}

function tooltipOf(api: ExtensionApi): string {
	const tooltip = api.statusBar.item.tooltip;
	return (typeof tooltip === 'string' ? tooltip : tooltip?.value ?? '').replace(/\\/g, '');
}

describe('the status bar, its tooltip, the preview and the rows agree', function () {
	this.timeout(180_000);
	let api: ExtensionApi;
	const packageDir = (): string => join(fixtures().agentDir, 'npm', 'node_modules', 'pi-condense');

	before(async () => {
		api = await activeApi();
		await vscode.commands.executeCommand('notifications.clearAll');
	});

	after(async () => {
		api.contextPreview.webviewPanel?.dispose();
		await api.controller.updatePruneSettings((raw) => ({ ...raw, enabled: true }));
	});

	// That the status bar's first text already follows the installed pi-condense is checked by activation.test.ts,
	// which runs before any test changes Pi's settings.

	/** Selects the basic session, opens its preview, and reads every surface once they have followed `settled`. */
	async function surfaces(settled: (status: string) => boolean, what: string): Promise<Surfaces> {
		const { basic } = fixtures();
		await vscode.commands.executeCommand('piCondense.selectSession', basic.path);
		await waitUntil(() => settled(api.statusBar.item.text) && api.controller.insight() !== undefined, `${what}: the status bar (is "${api.statusBar.item.text}")`, 30_000);
		// A fresh panel: its first snapshot is of the state now.
		api.contextPreview.webviewPanel?.dispose();
		const report = nextRenderReport(api, (r) => r.cause === 'snapshot' && r.sessionPath === basic.path && settled(r.figures.status ?? ''), 90_000);
		await vscode.commands.executeCommand('piCondense.openPreview');
		const preview = await report;
		await waitUntil(() => /-\d+%/.test(rowOf(basic.path)), `${what}: the row's figure (is "${rowOf(basic.path)}")`, 30_000);
		return { statusBar: api.statusBar.item.text, tooltip: tooltipOf(api), preview, row: rowOf(basic.path) };
	}

	function rowOf(path: string): string {
		return api.sessionsTree.shownProjects().flatMap((project) => project.sessions).find((session) => session.path === path)?.description ?? '';
	}

	it('pruning on: "prune: ON" on the status bar and in the preview, "pruning on", and the row\'s plain figure', async () => {
		const on = await surfaces((status) => status.startsWith('prune: ON'), 'on');
		assert.equal(on.preview.figures.status, on.statusBar);
		assert.match(on.tooltip, /\*\*Pi Condense\*\* · pruning on/);
		assert.match(on.tooltip, /Sent, with pi-condense's entries:\s+Conversation \(pi-condense's figure\): [\d.]+k → [\d.]+k tokens, \d+% less/);
		assert.match(on.row, /· -\d+%$/);
	});

	it('pruning off: "prune: OFF" everywhere, and the row says its figure is "if on"', async () => {
		await api.controller.updatePruneSettings((raw) => ({ ...raw, enabled: false }));
		const off = await surfaces((status) => status === 'prune: OFF', 'off');
		assert.equal(off.preview.figures.status, 'prune: OFF');
		assert.match(off.tooltip, /\*\*Pi Condense\*\* · pruning off/);
		assert.match(off.tooltip, /the model is sent the whole context/);
		assert.match(off.tooltip, /Sent now: the whole context, not pruned\. With pruning on:\s+Conversation \(pi-condense's figure\): [\d.]+k → [\d.]+k tokens/);
		assert.match(off.row, /-\d+% if on$/);
		await api.controller.updatePruneSettings((raw) => ({ ...raw, enabled: true }));
	});

	it('pi-condense not installed: "prune: not installed" everywhere, and the row says its figure is "if installed"', async () => {
		renameSync(packageDir(), `${packageDir()}.removed`);
		try {
			await waitUntil(() => api.controller.releaseResolution.kind === 'not-installed', 'the removal noticed', 30_000);
			const missing = await surfaces((status) => status === 'prune: not installed', 'not installed');
			assert.equal(missing.preview.figures.status, 'prune: not installed');
			assert.match(missing.tooltip, /\*\*Pi Condense\*\* · pi-condense not installed/);
			assert.ok(!/pruning on/.test(missing.tooltip), 'the tooltip no longer says pruning on');
			assert.match(missing.tooltip, /Sent now: the whole context, not pruned\. With pi-condense installed:\s+Conversation \(pi-condense's figure\): [\d.]+k → [\d.]+k tokens/);
			assert.match(missing.row, /-\d+% if installed$/);
		} finally {
			renameSync(`${packageDir()}.removed`, packageDir());
		}
		await waitUntil(() => api.controller.releaseResolution.kind === 'followed', 'installed again', 30_000);
	});

	it('no session selected: the workspace\'s state on the status bar, the tooltip says none is selected, the preview shows none', async () => {
		const empty = nextRenderReport(api, (r) => r.cause === 'snapshot' && r.sessionPath === '', 60_000);
		await api.controller.select(undefined);
		await waitUntil(() => api.statusBar.item.text === 'prune: ON', `the workspace's state (is "${api.statusBar.item.text}")`);
		assert.match(tooltipOf(api), /\*\*Pi Condense\*\* · pruning on/);
		assert.match(tooltipOf(api), /No session selected: pick one in Pi Sessions\. This is the state of this workspace's project\./);
		await empty;
		assert.equal(api.contextPreview.webviewPanel?.title, 'Context Preview', 'the tab no longer names a session');
		await vscode.commands.executeCommand('piCondense.selectSession', fixtures().basic.path);
	});
});

/**
 * The context preview in real VS Code (code-server's workbench, headless Chromium), wired through
 * the extension's session controller: opened by its command on the selected session (written by
 * real Pi + pi-condense, in the harness's agent dir), the page receives the rendered messages and
 * shows the engine's figures; real clicks in the webview switch to the raw context, change a
 * what-if setting and open a ref's raw output; a tree item reveals its message; the page restores
 * its state when the webview reloads.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { charsToTokens, contextBreakdownSteps, previewContextSteps } from '../../src/engine/condense';
import { buildSessionContextSteps, getBranchSteps } from '../../src/engine/session';
import type { ExtensionApi } from '../../src/host/extensionApi';
import type { RenderReport } from '../../src/shared/protocol';
import { repoRoot } from '../support/paths';
import { ui } from '../support/workbenchUi';
import { activeApi, fixtures, nextRenderReport, waitUntil } from './helpers';
import { runSteps } from '../../src/engine/steps';

describe('the context preview in VS Code', function () {
	this.timeout(120_000);
	let api: ExtensionApi;
	const reports: RenderReport[] = [];

	const nextReport = (test: (report: RenderReport) => boolean, timeoutMs = 30_000): Promise<RenderReport> => nextRenderReport(api, test, timeoutMs, () => reports.at(-1));

	before(async () => {
		api = await activeApi();
		const { basic } = fixtures();
		await vscode.commands.executeCommand('piCondense.openSession', basic.path);
		await waitUntil(() => api.sessionFeed.current()?.path === basic.path, 'the basic session selected and open');
		// Another test may have opened the panel already: start from a fresh one. Toasts from earlier
		// tests would cover the bottom of the page (real clicks wait until they are gone).
		api.contextPreview.webviewPanel?.dispose();
		await vscode.commands.executeCommand('notifications.clearAll');
		api.contextPreview.onDidReportRender((report) => reports.push(report));
	});

	after(() => {
		api.contextPreview.webviewPanel?.dispose();
	});

	it('opens on the selected session and shows the engine\'s context and figures', async () => {
		// The webview's first load (service worker, bundle) took over 30 s once on a loaded 2-core machine.
		const shown = nextReport((r) => r.cause === 'snapshot', 90_000);
		await vscode.commands.executeCommand('piCondense.openPreview');
		const report = await shown;
		const session = api.sessionFeed.current();
		assert.ok(session);
		const engine = runSteps(previewContextSteps(runSteps(getBranchSteps(session.model)), runSteps(buildSessionContextSteps(session.model)).messages, session.config, session.rules));
		const before = runSteps(contextBreakdownSteps(engine.before));
		const after = runSteps(contextBreakdownSteps(engine.after));
		assert.equal(report.rowCount, engine.after.length);
		assert.equal(report.figures.status, engine.statusText);
		assert.equal(report.values['totals.before'], charsToTokens(before.total));
		assert.equal(report.values['totals.after'], charsToTokens(after.total));
		assert.equal(report.values['bar.toolResults.after'], charsToTokens(after.toolResults));
		assert.equal(report.values['messages.before'], engine.before.length);
		assert.ok(report.domNodes > 100 && report.renderedRows.length > 5);
		assert.equal(api.contextPreview.webviewPanel?.viewType, 'piCondense.preview');
		assert.equal(api.contextPreview.webviewPanel?.title, `Context: ${session.title}`);
	});

	it('switches to the raw context before pruning on a click', async () => {
		const raw = nextReport((r) => r.cause === 'view' && r.view === 'before');
		await ui({ action: 'click', selector: 'vscode-button[data-control="view-before"]' });
		assert.equal((await raw).rowCount, 29);
		const back = nextReport((r) => r.cause === 'view' && r.view === 'after');
		await ui({ action: 'click', selector: 'vscode-button[data-control="view-after"]' });
		assert.equal((await back).rowCount, 15);
	});

	it('recomputes for a what-if setting typed in the page, without writing it', async () => {
		const current = reports.filter((r) => r.cause === 'snapshot').at(-1);
		const changed = nextReport((r) => r.cause === 'snapshot' && r.whatIfChanges === 1);
		await ui({ action: 'fill', selector: 'vscode-textfield[data-control="whatif-window"] input', value: '0' });
		const report = await changed;
		assert.ok((report.values['totals.after'] ?? 0) < (current?.values['totals.after'] ?? 0));
		assert.match(report.figures['whatIf.changes'] ?? '', /chainCompression\.rollingWindow = 0/);
		assert.equal(api.controller.config.chainCompression.rollingWindow, 1, 'nothing written');
		const reset = nextReport((r) => r.cause === 'snapshot' && r.whatIfChanges === 0);
		await ui({ action: 'click', selector: 'vscode-button[data-control="whatif-reset"]' });
		await reset;
	});

	it('opens the raw output of a ref clicked in the page', async () => {
		const opened = new Promise<vscode.TextEditor>((resolve) => {
			const subscription = vscode.window.onDidChangeActiveTextEditor((editor) => {
				if (editor) {
					subscription.dispose();
					resolve(editor);
				}
			});
		});
		await ui({ action: 'click', selector: '.row .ref[data-ref="t8"]' });
		const editor = await opened;
		assert.equal(editor.document.uri.scheme, 'pi-condense');
		assert.equal(editor.document.getText(), await api.sessionFeed.recover(['t8']));
		assert.match(editor.document.getText(), /^## toolRef: t8\nTool: context_tree_query/);
		await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
	});

	it('reveals the message of a tree item (its context menu, or revealInPreview with a ref)', async () => {
		const node = await api.prunedTree.findRef('t8');
		assert.ok(node, 'the Pruned Calls tree lists t8');
		const fromTree = nextReport((r) => r.cause === 'reveal');
		await vscode.commands.executeCommand('piCondense.openPreview', node);
		assert.ok((await fromTree).renderedRows.includes(10), 't8\'s stub row (#10) is on screen');
		const revealed = nextReport((r) => r.cause === 'reveal');
		await vscode.commands.executeCommand('piCondense.revealInPreview', 'b2');
		const report = await revealed;
		assert.equal(report.view, 'after');
		assert.ok(report.renderedRows.includes(4), 'the b2 row is on screen');
	});

	if (process.env['PI_CONDENSE_SCREENSHOTS']) {
		it('saves screenshots of the preview in a dark and a light theme (npm run screenshots)', async () => {
			await vscode.commands.executeCommand('workbench.action.closeSidebar');
			await vscode.commands.executeCommand('workbench.action.closePanel');
			await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
			// Settings written from the (remote) extension host do not reach code-server's UI theme; the
			// workbench's own light/dark toggle does, as a person would use it.
			const shots: readonly (readonly [vscode.ColorThemeKind, string])[] = [[vscode.ColorThemeKind.Dark, 'preview-dark.png'], [vscode.ColorThemeKind.Light, 'preview-light.png']];
			for (const [kind, file] of shots) {
				if (vscode.window.activeColorTheme.kind !== kind) {
					const changed = new Promise<void>((resolve) => {
						const listener = vscode.window.onDidChangeActiveColorTheme(() => {
							listener.dispose();
							resolve();
						});
					});
					await vscode.commands.executeCommand('workbench.action.toggleLightDarkThemes');
					await changed;
				}
				assert.equal(vscode.window.activeColorTheme.kind, kind, `the workbench switched to the ${file} theme`);
				api.contextPreview.webviewPanel?.reveal();
				await new Promise((resolve) => setTimeout(resolve, 1500));
				await ui({ action: 'scroll', selector: '.list-scroller', value: 0 });
				await ui({ action: 'hover', selector: '.row[data-key="bb1"] .ref[data-ref="t3"]' });
				await new Promise((resolve) => setTimeout(resolve, 1200));
				await ui({ action: 'screenshot', path: join(repoRoot, 'media', 'screenshots', file) });
			}
			await vscode.commands.executeCommand('workbench.action.toggleLightDarkThemes');
			// Later tests use the sidebar's views.
			await vscode.commands.executeCommand('workbench.view.extension.piCondense');
		});
	}

	it('restores its view after the webview reloads', async () => {
		const raw = nextReport((r) => r.cause === 'view' && r.view === 'before');
		// By keyboard: the tooltip of the ref an earlier test clicked may still cover the toolbar.
		await ui({ action: 'press', selector: 'vscode-button[data-control="view-before"]', value: 'Enter' });
		await raw;
		const restored = nextReport((r) => r.cause === 'restore');
		api.contextPreview.webviewPanel?.reveal();
		await vscode.commands.executeCommand('workbench.action.webview.reloadWebviewAction');
		const report = await restored;
		assert.equal(report.view, 'before');
		assert.equal(report.rowCount, 29);
	});
});

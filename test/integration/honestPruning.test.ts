/**
 * Honest, undoable pruning in real VS Code: a prune of a session whose model has no key asks first
 * (what will be written, that summaries would be extractive and offline, with Set up a key… and
 * Summarize offline) and writes nothing until answered; summarized offline, it says what it did and
 * how, with the estimate given before it and the result side by side; Undo Last Prune restores the
 * file byte for byte, and refuses once Pi has written after our lines. The preview shows the pending
 * work (the dry run's figures, in the question's words) with both buttons, and its Summarize now
 * asks the same question. Compact's question names its button "Compact offline" without a key. (The real dialog is clicked by the UI smoke test: an extension test run's workbench
 * answers dialogs with Cancel.)
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readFileSync, unlinkSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { charsToTokens } from '../../src/engine/condense';
import type { ExtensionApi } from '../../src/host/extensionApi';
import type { UndoOutcome } from '../../src/host/flush/undoPrunes';
import type { FlushOutcome } from '../../src/node/flush/flushOutcome';
import { basisText, changeText, estimateVersusResult, pendingText, planText, reclaimText } from '../../src/engine/views';
import { ui } from '../support/workbenchUi';
import { activeApi, contextPruneOnDisk, fixtures, logText, nextRenderReport, notificationTexts, selectIdleSession, waitUntil } from './helpers';

const OUTPUT = Array.from({ length: 60 }, (_, i) => `build step ${i}: compiled src/module${i}.ts in ${i * 7} ms`).join('\n');

describe('honest, undoable pruning', function () {
	this.timeout(180_000);
	let api: ExtensionApi;
	let original: Record<string, unknown>;
	const created: string[] = [];
	const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('piCondense');

	/** A session of the workspace Pi left a minute ago, on anthropic/claude-sonnet-4-5 (no key for it here), selected. */
	async function idleSession(name: string): Promise<string> {
		const path = join(dirname(fixtures().basic.path), `2026-12-05T10-00-00-000Z_${name}.jsonl`);
		created.push(path);
		await selectIdleSession(api, path, name, `Honest pruning ${name}: build the project`, OUTPUT);
		return path;
	}

	before(async () => {
		api = await activeApi();
		original = contextPruneOnDisk();
		await api.controller.updatePruneSettings((raw) => ({ ...raw, enabled: true, summarizerModel: 'default', minBatchChars: 50 }));
		await vscode.commands.executeCommand('notifications.clearAll');
	});

	after(async () => {
		await settings().update('confirmPrune', false, vscode.ConfigurationTarget.Global);
		api.contextPreview.webviewPanel?.dispose();
		await api.controller.updatePruneSettings(() => original);
		for (const path of created.filter(existsSync)) {
			unlinkSync(path);
		}
		await waitUntil(() => created.every((path) => !api.controller.knowsSession(path)), 'the test sessions unlisted');
		await vscode.commands.executeCommand('piCondense.selectSession', fixtures().basic.path);
	});

	it('asks first: with piCondense.confirmPrune on, nothing is written until the question is answered, and the question says there is no key', async () => {
		const path = await idleSession('asked');
		const before = readFileSync(path);
		await settings().update('confirmPrune', true, vscode.ConfigurationTarget.Global);
		// An extension test run's workbench answers every dialog with Cancel at once (its DialogService refuses
		// them): what was asked is in the log. The UI smoke test (uiPruneFlow.mjs) clicks the real dialog.
		const outcome = await vscode.commands.executeCommand<FlushOutcome | undefined>('piCondense.flushNow');
		assert.equal(outcome, undefined, 'not confirmed: nothing done');
		assert.ok(readFileSync(path).equals(before), 'nothing written');
		const log = logText(api.logUri.fsPath);
		const asked = log.split('\n').find((line) => line.includes('asked before now: Summarize the 1 pending batch of "Honest pruning asked: build the project"?')) ?? '';
		assert.match(asked, /No key for anthropic\/claude-sonnet-4-5 \(ANTHROPIC_OAUTH_TOKEN or ANTHROPIC_API_KEY is not set, and auth\.json has none\): summaries will be extractive, offline, with no LLM call\./);
		// The dry run's figures and words, as the preview's bar says them.
		const estimate = await api.controller.flushEstimateFor(path, 'now');
		assert.equal(estimate.batches, 1);
		for (const text of [`${pendingText(estimate)}.`, `${planText(estimate)}.`, `Summarize now would reclaim ${reclaimText(estimate)} (${changeText(estimate)}).`, basisText(estimate, api.controller.rules.version)]) {
			assert.ok(asked.includes(text), `${text} in: ${asked}`);
		}
		assert.match(asked, /\[Set up a key… \| Summarize offline\]$/);
		assert.match(log, new RegExp(`now on ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: not confirmed, nothing written`));
	});

	it('Compact\'s question names its button for what it does: "Compact offline" when there is no key', async () => {
		const path = await idleSession('compacted');
		await settings().update('confirmPrune', true, vscode.ConfigurationTarget.Global);
		const outcome = await vscode.commands.executeCommand<FlushOutcome | undefined>('piCondense.compact');
		assert.equal(outcome, undefined, 'not confirmed: nothing done');
		const asked = logText(api.logUri.fsPath).split('\n').find((line) => line.includes('asked before compact: Compact the closed chains of "Honest pruning compacted: build the project"?')) ?? '';
		assert.match(asked, /\[Set up a key… \| Compact offline\]$/);
		const estimate = await api.controller.flushEstimateFor(path, 'compact');
		assert.ok(asked.includes(estimate.compressedChains > 0 ? `${planText(estimate)}` : 'No closed chain is eligible now'), asked);
	});

	it('without a key (confirmation off), summarizes offline and says so, with the estimate and the result side by side in the toast; Undo Last Prune restores the file byte for byte', async () => {
		await settings().update('confirmPrune', false, vscode.ConfigurationTarget.Global);
		const path = await idleSession('nokey');
		const before = readFileSync(path);
		const estimate = await api.controller.flushEstimateFor(path, 'now');
		const outcome = await vscode.commands.executeCommand<FlushOutcome | undefined>('piCondense.flushNow');
		assert.equal(outcome?.kind, 'written', outcome?.message);
		assert.ok(outcome.sent && outcome.sent.beforeChars === estimate.sent.beforeChars, 'measured from the same request as the estimate');
		const sideBySide = estimateVersusResult(estimate, outcome.sent);
		assert.match(sideBySide, /^estimated about [\d.]+k? tokens, reclaimed [\d.]+k? tokens \([\d.]+k? → [\d.]+k? tokens sent\)$/);
		await waitUntil(async () => (await notificationTexts()).some((text) => text.includes(`Estimated ${sideBySide.slice('estimated '.length)}`)), `the notification with "${sideBySide}"`, 30_000);
		assert.match(outcome.offlineReason ?? '', /no credentials for anthropic\/claude-sonnet-4-5/);
		await waitUntil(() => /Pi Condense: Summarized 1 batch of 1 \(1 tool call\) offline \(extractive, no LLM call: no credentials for anthropic/.test(logText(api.logUri.fsPath)), 'our account of the flush logged, saying how');

		await waitUntil(() => api.flush.undo.undoable(path), 'Undo Last Prune offered for the session', 30_000);
		const undone = await vscode.commands.executeCommand<UndoOutcome>('piCondense.undoLastPrune', path, 'toast');
		assert.equal(undone.kind, 'undone', JSON.stringify(undone));
		assert.ok(readFileSync(path).equals(before), 'the file is byte for byte what it was before the prune');
		await waitUntil(() => api.controller.insight()?.pending.length === 1, 'the views follow: the batch is pending again', 30_000);
		await waitUntil(() => !api.flush.undo.undoable(path), 'nothing left to undo');
	});

	it('refuses to undo once Pi has written after our lines, and leaves the file alone', async () => {
		await settings().update('confirmPrune', false, vscode.ConfigurationTarget.Global);
		const path = await idleSession('continued');
		const outcome = await vscode.commands.executeCommand<FlushOutcome>('piCondense.flushNow');
		assert.equal(outcome.kind, 'written', outcome.message);
		const leaf = (JSON.parse(readFileSync(path, 'utf8').trimEnd().split('\n').at(-1) ?? '{}') as { id: string }).id;
		appendFileSync(path, `${JSON.stringify({ type: 'message', id: 'c0ffee01', parentId: leaf, timestamp: new Date().toISOString(), message: { role: 'user', content: [{ type: 'text', text: 'Pi went on' }], timestamp: Date.now() } })}\n`);
		const aMinuteAgo = new Date(Date.now() - 60_000);
		utimesSync(path, aMinuteAgo, aMinuteAgo);
		const continued = readFileSync(path);
		const refused = await vscode.commands.executeCommand<UndoOutcome>('piCondense.undoLastPrune', path, 'toast');
		assert.equal(refused.kind, 'refused');
		assert.match(refused.kind === 'refused' ? refused.reason : '', /bytes were appended after Pi Condense's lines/);
		assert.ok(readFileSync(path).equals(continued), 'the file is untouched');
	});

	it('the preview shows the pending work, its estimate and both buttons (after a skeleton); Summarize now asks the same question first', async () => {
		await settings().update('confirmPrune', true, vscode.ConfigurationTarget.Global);
		const path = await idleSession('button');
		const before = readFileSync(path);
		api.contextPreview.webviewPanel?.dispose();
		// The snapshot that says the dry run's figure (one without it may come first, while the dry run works).
		const shown = nextRenderReport(api, (r) => r.cause === 'snapshot' && r.sessionPath === path && r.values['pending.estimate'] !== undefined, 90_000);
		await vscode.commands.executeCommand('piCondense.openPreview');
		const report = await shown;
		// The panel's HTML carries the skeleton it shows from its first paint, before its script or the host's snapshot.
		assert.match(api.contextPreview.webviewPanel?.webview.html ?? '', /data-skeleton="page"[\s\S]*class="skeleton-row"/);
		assert.equal(report.values['pending'], 1);
		assert.ok((report.values['pending.estimate'] ?? 0) > 0, 'an estimate of what Summarize now reclaims');
		// The dry run's figure and words, the ones the confirmation says.
		const estimate = await api.controller.flushEstimateFor(path, 'now');
		assert.equal(report.values['pending.estimate'], charsToTokens(estimate.reclaimChars));
		assert.equal(report.figures['pending.plan'], `${planText(estimate)}.`);
		assert.equal(report.figures['pending.note'], basisText(estimate, api.controller.rules.version));
		const buttons = JSON.parse(await ui({ action: 'elements', selector: '.actions-bar vscode-button' }) ?? '[]') as string[];
		assert.deepEqual(buttons.map((html) => /data-control="([\w-]+)"/.exec(html)?.[1]), ['summarize-now', 'compact'], 'both buttons in the page');
		assert.ok(buttons.every((html) => !/\sdisabled/.test(html)), 'both enabled here');
		await ui({ action: 'click', selector: 'vscode-button[data-control="summarize-now"]' });
		await waitUntil(() => logText(api.logUri.fsPath).includes('asked before now: Summarize the 1 pending batch of "Honest pruning button: build the project"?'), 'the same question asked', 60_000);
		await waitUntil(() => logText(api.logUri.fsPath).includes(`now on ${path}: not confirmed, nothing written`), 'the answer heard');
		assert.ok(readFileSync(path).equals(before), 'not confirmed: nothing written');
	});
});

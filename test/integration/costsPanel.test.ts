/**
 * The Costs panel in real VS Code, through the extension's store (its costs ledger) and the preview's
 * page: on a session written by real Pi 1.6.0 with pi-condense 2.9.1 (in a project folder of its own,
 * Pi's layout, removed after), a real click on the Costs button opens the panel, whose figures are the
 * engine's for that file (17 requests, every prune accounted with its verdict).
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { CostsLedger, NO_PRICES, sessionCostsSteps, verdictText } from '../../src/engine/costs';
import { parseSessionSteps } from '../../src/engine/session';
import { runSteps } from '../../src/engine/steps';
import type { ExtensionApi } from '../../src/host/extensionApi';
import type { RenderReport } from '../../src/shared/protocol';
import { piCondenseSessionsDir } from '../support/paths';
import { ui } from '../support/workbenchUi';
import { activeApi, fixtures, nextRenderReport, waitUntil } from './helpers';

describe('the Costs panel in VS Code', function () {
	this.timeout(120_000);
	let api: ExtensionApi;
	const reports: RenderReport[] = [];
	const folder = (): string => join(fixtures().sessionsDir, '--costs-panel-test--');
	const path = (): string => join(folder(), '2026-12-02T16-41-34-000Z_costs-panel.jsonl');
	const nextReport = (test: (report: RenderReport) => boolean, timeoutMs = 60_000): Promise<RenderReport> => nextRenderReport(api, test, timeoutMs, () => reports.at(-1));

	before(async () => {
		api = await activeApi();
		mkdirSync(folder(), { recursive: true });
		copyFileSync(join(piCondenseSessionsDir, 'batching-pi-1.6.0', 'session.jsonl'), path());
		await waitUntil(() => api.controller.knowsSession(path()), 'the session listed');
		await vscode.commands.executeCommand('piCondense.openSession', path());
		await waitUntil(() => api.sessionFeed.current()?.path === path(), 'the session selected and open');
		api.contextPreview.webviewPanel?.dispose();
		await vscode.commands.executeCommand('notifications.clearAll');
		api.contextPreview.onDidReportRender((report) => reports.push(report));
	});

	after(async () => {
		api.contextPreview.webviewPanel?.dispose();
		rmSync(folder(), { recursive: true, force: true });
		await waitUntil(() => !api.controller.knowsSession(path()), 'the test session unlisted');
	});

	it('opens on a click with the engine\'s figures for the session, every prune accounted, and keeps them in the session index', async () => {
		// The history's costs (the Pi Costs view's) know the session from the index, its pruning not yet counted.
		const pruningInHistory = async (): Promise<number | undefined> => (await api.controller.historyCosts({}))?.report.bySession.find((group) => group.key === path())?.pruning.prunes;
		let dueBefore = 0;
		await waitUntil(async () => {
			const history = await api.controller.historyCosts({});
			dueBefore = history?.accountsDue ?? 0;
			return history?.report.bySession.some((group) => group.key === path()) === true;
		}, 'the session in the history\'s costs');
		assert.equal(await pruningInHistory(), 0, 'its pruning is not counted before its prunes are worked out');
		assert.ok(dueBefore >= 1, 'the session is counted as due');
		const shown = nextReport((r) => r.cause === 'snapshot' && r.sessionPath === path(), 90_000);
		await vscode.commands.executeCommand('piCondense.openPreview');
		await shown;
		assert.ok(!reports.some((report) => report.cause === 'costs'), 'nothing is worked out while the panel is closed');
		const accounted = nextReport((r) => r.cause === 'costs' && (r.values['costs.prunes'] ?? -1) >= 0);
		await ui({ action: 'click', selector: 'vscode-button[data-control="costs"]' });
		const report = await accounted;

		// The engine run here on the file, with the release and settings the extension follows for it.
		const session = api.sessionFeed.current();
		assert.ok(session);
		const model = runSteps(parseSessionSteps(readFileSync(path(), 'utf8')));
		const costs = runSteps(sessionCostsSteps({ model, rules: session.rules, config: session.config, prices: NO_PRICES, ledger: runSteps(CostsLedger.empty().extendSteps(model.entries)) }));
		assert.equal(report.values['costs.requests'], costs.timeline.requests.length);
		assert.equal(report.values['costs.requests'], 17);
		assert.equal(report.values['costs.prunes'], costs.accounts.length);
		assert.ok(costs.accounts.length > 0, 'the session has prunes');
		costs.accounts.forEach((account, i) => assert.equal(report.figures[`costs.prune.${i + 1}.verdict`], verdictText(account.verdict), `prune ${i + 1}`));
		assert.match(report.figures['costs.summary.0'] ?? '', /^17 \(17 in the conversation\)/);

		// What the panel worked out is kept: the history counts the session's pruning, and it is no longer due.
		const reached = costs.accounts.filter((account) => account.firstRequest !== undefined).length;
		assert.ok(reached > 0, 'a prune reached a request');
		await waitUntil(async () => await pruningInHistory() === reached, 'the history counting the session\'s prunes');
		assert.equal((await api.controller.historyCosts({}))?.accountsDue, dueBefore - 1);
	});

	it('Count the Pruning of Every Session counts the rest, each as the Costs panel would', async () => {
		// A second copy of a pruned session, in another project folder: not counted until the command reads it.
		const other = join(fixtures().sessionsDir, '--count-pruning-test--');
		const copy = join(other, '2026-12-02T16-41-35-000Z_count-pruning.jsonl');
		mkdirSync(other, { recursive: true });
		copyFileSync(join(piCondenseSessionsDir, 'large-bulk-2.9.1', 'session.jsonl'), copy);
		try {
			await waitUntil(async () => (await api.controller.historyCosts({}))?.report.bySession.some((group) => group.key === copy) === true, 'the copy in the history\'s costs');
			const due = (await api.controller.historyCosts({}))?.accountsDue ?? 0;
			assert.ok(due >= 1, 'the copy is due');
			const said = await vscode.commands.executeCommand<string>('piCondense.countPruning');
			assert.equal(said, `Pi Condense counted the pruning of ${due} session${due === 1 ? '' : 's'}.`);
			const history = await api.controller.historyCosts({});
			assert.equal(history?.accountsDue, 0, 'nothing left to count');
			// The copy's pruning as the engine accounts its file, with the settings the extension renders it with.
			const settings = await api.controller.readySettingsFor(copy);
			assert.ok(settings);
			const model = runSteps(parseSessionSteps(readFileSync(copy, 'utf8')));
			const costs = runSteps(sessionCostsSteps({ model, rules: settings.rules, config: settings.config, prices: NO_PRICES, ledger: runSteps(CostsLedger.empty().extendSteps(model.entries)) }));
			const reached = costs.accounts.filter((account) => account.firstRequest !== undefined).length;
			assert.equal(history?.report.bySession.find((group) => group.key === copy)?.pruning.prunes, reached);
			assert.equal(await vscode.commands.executeCommand<string>('piCondense.countPruning'), 'The pruning of every pruned session is counted already.');
		} finally {
			rmSync(other, { recursive: true, force: true });
			await waitUntil(() => !api.controller.knowsSession(copy), 'the copy unlisted');
		}
	});
});

/**
 * The Pi Costs view in real VS Code, from the session index: shown (its view focused), it works out the
 * history's costs on the index's thread; its total is every listed session's requests and spend as the
 * engine counts them from the files (no fork among them: each once), the most expensive sessions are
 * the listed ones with the most spend, and a session's row opens that session.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { sessionTimelineSteps, usd } from '../../src/engine/costs';
import { parseSessionSteps } from '../../src/engine/session';
import { runSteps } from '../../src/engine/steps';
import type { ExtensionApi } from '../../src/host/extensionApi';
import type { CostsRow } from '../../src/host/history/piCostsNodes';
import { activeApi, fixtures, waitUntil } from './helpers';

describe('the Pi Costs view', function () {
	this.timeout(120_000);
	let api: ExtensionApi;

	before(async () => {
		api = await activeApi();
		await waitUntil(() => api.controller.indexState?.kind === 'ready', `the session index ready (is ${api.controller.indexState?.kind ?? 'none'})`, 60_000);
	});

	after(async () => {
		await vscode.commands.executeCommand('piCondense.selectSession', fixtures().basic.path);
	});

	it('shows the history\'s spend, each session once, and opens a session from its row', async () => {
		await vscode.commands.executeCommand('piCondense.costs.focus');
		await waitUntil(() => api.costsTree.view.visible, 'the view shown');
		await api.costsTree.refresh();
		const rows = api.costsTree.shownRows;
		const total = rows.find((row) => row.id === 'total');
		assert.ok(total, JSON.stringify(rows.map((row) => row.label)));

		// The engine over every listed file (Pi's own totals per session).
		const perSession = api.controller.sessionPaths().map((path) => ({ path, sums: runSteps(sessionTimelineSteps(runSteps(parseSessionSteps(readFileSync(path, 'utf8'))).entries)).sums }));
		const requests = perSession.reduce((sum, session) => sum + session.sums.requests, 0);
		const spend = perSession.reduce((sum, session) => sum + session.sums.cost, 0);
		assert.ok(requests > 0);
		assert.match(total.description ?? '', new RegExp(` · ${requests.toLocaleString('en-US')} requests$`));
		assert.equal(total.label, `${usd(spend)} spent`);

		const expensive = rows.find((row) => row.id === 'expensive')?.children ?? [];
		const spent = perSession.filter((session) => session.sums.cost > 0).sort((a, b) => b.sums.cost - a.sums.cost);
		assert.deepEqual(expensive.map((row: CostsRow) => row.sessionPath).slice(0, Math.min(3, spent.length)), spent.slice(0, 3).map((session) => session.path));
		assert.ok(rows.some((row) => row.id === 'weeks' && (row.children?.length ?? 0) > 0), 'by week');
		assert.ok(rows.some((row) => row.id === 'projects' && (row.children?.length ?? 0) > 0), 'by project');

		const first = expensive[0];
		assert.ok(first?.sessionPath);
		assert.equal(first.label, api.controller.titleOf(first.sessionPath), 'named as the Pi Sessions view names it');
		const item = api.costsTree.getTreeItem(first);
		assert.ok(item.command);
		await vscode.commands.executeCommand(item.command.command, ...(item.command.arguments ?? []));
		await waitUntil(() => api.controller.selected === first.sessionPath, 'the session opened');
	});
});

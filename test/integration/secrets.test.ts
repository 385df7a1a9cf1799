/**
 * Planted keys never leak from VS Code: a key in auth.json and a header value in models.json, a
 * fake server that echoes both (in a 401 error, then inside the summary it returns), and every
 * output of the host searched afterwards: the flush outcomes and notices, the session file,
 * settings.json, the status bar, every row of both trees with its tooltip, the problems, recovery,
 * the extension's log files (notifications show the logged texts), and the context preview's page
 * (its HTML with shadow roots, in both views).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { FlushOutcome } from '../../src/node/flush/flushOutcome';
import type { RenderReport } from '../../src/shared/protocol';
import { startFakeLlmServer, type FakeLlmServer, type RecordedRequest } from '../support/fakeLlmServer';
import { ui } from '../support/workbenchUi';
import { activeApi, contextPruneOnDisk, fixtures, logText, selectIdleSession, waitUntil } from './helpers';

const KEY = 'sk-SENTINEL-vscode-6d2e91c4a7b3';
const HEADER = 'hdr-SENTINEL-vscode-0f83b5e2';

function assertNoSecret(where: string, text: string): void {
	for (const secret of [KEY, HEADER]) {
		assert.ok(!text.includes(secret.slice(-8)), `${where} contains (part of) ${secret}:\n${text.slice(0, 1500)}`);
	}
}

/** Every row of a tree view as the user sees it: label, description and tooltip. */
async function treeText(provider: vscode.TreeDataProvider<unknown>): Promise<string> {
	const out: string[] = [];
	const walk = async (element: unknown, depth: number): Promise<void> => {
		for (const child of (await provider.getChildren(element)) ?? []) {
			const item = await provider.getTreeItem(child);
			const tooltip = item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : item.tooltip;
			const label = typeof item.label === 'object' ? item.label.label : item.label;
			out.push(`${label ?? ''} | ${String(item.description ?? '')} | ${tooltip ?? ''}`);
			if (depth < 3) {
				await walk(child, depth + 1);
			}
		}
	};
	await walk(undefined, 0);
	return out.join('\n');
}

describe('planted secrets in VS Code', function () {
	this.timeout(60_000);
	let server: FakeLlmServer;
	let original: Record<string, unknown>;
	let sessionPath = '';
	const agentFile = (name: string): string => join(fixtures().agentDir, name);

	before(async () => {
		const api = await activeApi();
		const echo = (request: RecordedRequest): string => `- [[1:bash]] listed with ${String(request.headers.authorization)} and ${String(request.headers['x-api-token'])}`;
		server = await startFakeLlmServer({ text: echo });
		writeFileSync(agentFile('models.json'), JSON.stringify({
			providers: { 'fake-llm': { baseUrl: `${server.url}/v1`, api: 'openai-completions', apiKey: 'FAKE_LLM_TEST_KEY_UNSET', headers: { 'X-Api-Token': HEADER }, models: [{ id: 'fake-model' }] } },
		}, null, 2));
		writeFileSync(agentFile('auth.json'), JSON.stringify({ 'fake-llm': { type: 'api_key', key: KEY } }), { mode: 0o600 });
		original = contextPruneOnDisk();
		await api.controller.updatePruneSettings((raw) => ({ ...raw, enabled: true, summarizerModel: 'fake-llm/fake-model', minBatchChars: 50 }));
	});

	after(async () => {
		const api = await activeApi();
		await api.controller.updatePruneSettings(() => original);
		for (const path of [agentFile('models.json'), agentFile('auth.json'), sessionPath]) {
			if (path && existsSync(path)) {
				unlinkSync(path);
			}
		}
		await server.close();
		// Later suites count the listed sessions: wait until ours is gone from the list.
		await waitUntil(() => !sessionPath || !api.controller.knowsSession(sessionPath), 'the test session unlisted');
		await vscode.commands.executeCommand('piCondense.selectSession', fixtures().basic.path);
		await waitUntil(() => api.controller.selected === fixtures().basic.path && api.controller.insight() !== undefined, 'the basic session selected again');
	});

	it('appear in no outcome, notice, file, view, problem, recovery or log line, after a failed and a successful flush', async () => {
		const api = await activeApi();
		sessionPath = join(dirname(fixtures().basic.path), '2026-12-04T10-00-00-000Z_secrets.jsonl');
		await selectIdleSession(api, sessionPath, 'secrets', 'List the project', Array.from({ length: 40 }, (_, i) => `file-${i}.txt ${'x'.repeat(30)}`).join('\n'));
		const aMinuteAgo = new Date(Date.now() - 60_000);

		server.enqueue({ status: 401, errorMessage: `Incorrect API key provided: ${KEY} (header ${HEADER})` });
		const failed = await vscode.commands.executeCommand<FlushOutcome>('piCondense.flushNow');
		assert.equal(failed.kind, 'failed', failed.message);
		assert.match(failed.message, /401/);
		utimesSync(sessionPath, aMinuteAgo, aMinuteAgo);
		const written = await vscode.commands.executeCommand<FlushOutcome>('piCondense.flushNow');
		assert.equal(written.kind, 'written', `${written.message} ${written.advice ?? ''}`);
		assert.ok(server.requests.every((request) => request.headers.authorization === `Bearer ${KEY}` && request.headers['x-api-token'] === HEADER), 'the keys did reach the server');

		await waitUntil(() => api.prunedTree.rootNodes.some((node) => node.data.kind === 'summary'), 'the summary shown');
		await waitUntil(() => logText(api.logUri.fsPath).includes('now on '), 'the flushes logged');
		assertNoSecret('the flush outcomes', JSON.stringify([failed, written]));
		assertNoSecret('the session file', readFileSync(sessionPath, 'utf8'));
		assertNoSecret('settings.json', readFileSync(agentFile('settings.json'), 'utf8'));
		assertNoSecret('the status bar', `${api.statusBar.item.text} ${JSON.stringify(api.statusBar.item.tooltip)}`);
		assertNoSecret('the pruned-calls tree', await treeText(api.prunedTree));
		assertNoSecret('the sessions tree', await treeText(api.sessionsTree));
		assertNoSecret('the problems', JSON.stringify(vscode.languages.getDiagnostics().map(([uri, list]) => [uri.toString(), list.map((d) => d.message)])));
		assertNoSecret('recovery', await api.controller.recover(sessionPath, ['t1']));
		assertNoSecret('the log', logText(api.logUri.fsPath));

		api.contextPreview.webviewPanel?.dispose();
		const reports: RenderReport[] = [];
		const listening = api.contextPreview.onDidReportRender((report) => reports.push(report));
		try {
			await vscode.commands.executeCommand('piCondense.openPreview');
			await waitUntil(() => reports.some((r) => r.cause === 'snapshot' && r.sessionPath === sessionPath), 'the preview shows the session');
			const after = await ui({ action: 'html', selector: '.row' }) ?? '';
			assert.match(after, /listed with/, 'the page shows the summary the server returned');
			assertNoSecret('the preview', after);
			await ui({ action: 'click', selector: 'vscode-button[data-control="view-before"]' });
			await waitUntil(() => reports.some((r) => r.cause === 'view' && r.view === 'before'), 'the raw context shown');
			assertNoSecret('the preview\'s raw context', await ui({ action: 'html', selector: '.row' }) ?? '');
		} finally {
			listening.dispose();
			api.contextPreview.webviewPanel?.dispose();
		}
	});
});

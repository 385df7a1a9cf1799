/**
 * A large session in real VS Code: a real Pi session repeated with fresh ids to tens of MB, written
 * at test time next to the fixtures (and deleted after). While the extension opens it, shows its
 * preview, switches to the raw view and applies a what-if, the test watches the extension host's
 * event loop from inside the host (this code runs in it) and prints the longest block of each
 * phase. The figures are printed, not asserted (the machine's load decides them); the test checks
 * that each phase did happen, on this session.
 */
import assert from 'node:assert/strict';
import { rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/host/extensionApi';
import type { RenderReport } from '../../src/shared/protocol';
import { realSessionsDir } from '../support/paths';
import { writeRepeatedSession } from '../support/repeatSession';
import { ui } from '../support/workbenchUi';
import { watchThread } from '../support/hostThreadWatch';
import { activeApi, fixtures, nextRenderReport, waitUntil } from './helpers';

const TARGET_MB = Number(process.env['PI_CONDENSE_TEST_LARGE_MB'] ?? '40');

describe('a large session in VS Code', function () {
	this.timeout(600_000);
	let api: ExtensionApi;
	let path = '';
	const lines: string[] = [];

	const nextReport = (test: (report: RenderReport) => boolean, timeoutMs: number): Promise<RenderReport> => nextRenderReport(api, test, timeoutMs);

	/**
	 * Runs `phase` while watching the host's event loop (see `watchThread`); prints its longest
	 * block, the longest counting only time on a core, the longest the loop was busy, and the
	 * collector's longest pause.
	 */
	const watched = async (what: string, phase: () => Promise<void>): Promise<void> => {
		const figures = await watchThread(what.split(' ')[0] ?? 'phase', phase, process.env['PI_CONDENSE_TEST_PROFILE']);
		const { longestGc } = figures;
		const gcText = longestGc ? `${longestGc.ms.toFixed(0)} ms (${longestGc.kind})` : 'none';
		lines.push(`${what.padEnd(40)} ${(figures.elapsedMs / 1000).toFixed(2)} s; longest host block ${figures.longestDelayMs.toFixed(0)} ms `
			+ `(on a core ${figures.longestOnCpuMs.toFixed(0)} ms, loop busy ${figures.longestBusyMs.toFixed(0)} ms), p99 ${figures.p99DelayMs.toFixed(0)} ms; longest GC pause ${gcText}`);
	};

	before(async () => {
		api = await activeApi();
		// A real session without compactions: its whole length is in the context the preview shows.
		const source = join(realSessionsDir, 'large-session.migrated-v3.jsonl');
		path = join(dirname(fixtures().realV3.path), '2026-12-02T10-00-00-000Z_large-session.jsonl');
		const entries = writeRepeatedSession(source, path, TARGET_MB * 1024 * 1024);
		lines.push(`large session: ${(statSync(path).size / 1024 / 1024).toFixed(1)} MB, ${entries} entries (${basename(source)} repeated)`);
		api.contextPreview.webviewPanel?.dispose();
		await vscode.commands.executeCommand('notifications.clearAll');
	});

	after(async () => {
		api.contextPreview.webviewPanel?.dispose();
		console.log(`[large session] event-loop delay of the extension host:\n  ${lines.join('\n  ')}`);
		await vscode.commands.executeCommand('piCondense.openSession', fixtures().basic.path);
		await waitUntil(() => api.sessionFeed.current()?.path === fixtures().basic.path, 'back to the basic session', 120_000);
		rmSync(path, { force: true });
	});

	it('opens it, shows its preview, its raw view and a what-if, printing the longest host block of each', async () => {
		await watched('open (list, select, state, tree, status)', async () => {
			await waitUntil(() => api.sessionsTree.shownProjects().some((project) => project.sessions.some((session) => session.path === path)), 'the large session listed', 120_000);
			await vscode.commands.executeCommand('piCondense.openSession', path);
			await waitUntil(() => api.sessionFeed.current()?.path === path && api.controller.insight() !== undefined, 'the large session open', 300_000);
		});
		let rows = 0;
		await watched('preview (first rows shown)', async () => {
			const shown = nextReport((r) => r.cause === 'snapshot', 300_000);
			await vscode.commands.executeCommand('piCondense.openPreview');
			rows = (await shown).rowCount;
		});
		const session = api.sessionFeed.current();
		assert.equal(session?.path, path);
		assert.ok(rows > 10_000, `the preview shows the large session's rows (${rows})`);
		await watched('raw view (click, rows shown)', async () => {
			const raw = nextReport((r) => r.cause === 'view' && r.view === 'before', 300_000);
			await ui({ action: 'click', selector: 'vscode-button[data-control="view-before"]' });
			assert.ok((await raw).rowCount >= rows);
		});
		await watched('what-if keep-last 4 (typed, rows shown)', async () => {
			const changed = nextReport((r) => r.cause === 'snapshot' && r.whatIfChanges > 0, 300_000);
			await ui({ action: 'fill', selector: 'vscode-textfield[data-control="whatif-keep"] input', value: '4' });
			await changed;
		});
		const pending = api.prunedTree.rootNodes.find((node) => node.data.kind === 'group' && node.data.group === 'pending');
		assert.ok(pending, 'the large session has pending batches');
		await vscode.commands.executeCommand('piCondense.prunedCalls.focus');
		await watched(`expand Pending, then its first range (${api.controller.insight()?.pending.length ?? 0} batches, rows shown)`, async () => {
			await api.prunedTree.view.reveal(pending, { expand: true });
			await ui({ action: 'elements', selector: '.monaco-list-row[aria-label^="Batches 1–"]' });
			const [first] = await api.prunedTree.getChildren(pending);
			assert.equal(first?.data.kind, 'range', 'thousands of batches come in ranges');
			await api.prunedTree.view.reveal(first, { expand: true });
			await ui({ action: 'elements', selector: '.monaco-list-row[aria-label^="Turn "]' });
		});
	});
});

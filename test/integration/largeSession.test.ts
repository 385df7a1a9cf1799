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
import { monitorEventLoopDelay, performance, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/host/extensionApi';
import type { RenderReport } from '../../src/shared/protocol';
import { realSessionsDir } from '../support/paths';
import { writeRepeatedSession } from '../support/repeatSession';
import { ui } from '../support/workbenchUi';
import { activeApi, fixtures, nextRenderReport, waitUntil } from './helpers';

const TARGET_MB = Number(process.env['PI_CONDENSE_TEST_LARGE_MB'] ?? '40');

describe('a large session in VS Code', function () {
	this.timeout(600_000);
	let api: ExtensionApi;
	let path = '';
	const lines: string[] = [];

	const nextReport = (test: (report: RenderReport) => boolean, timeoutMs: number): Promise<RenderReport> => nextRenderReport(api, test, timeoutMs);

	/**
	 * Runs `phase` while sampling the host's event loop every millisecond; prints its longest block,
	 * and the longest pause of the garbage collector (no slice can cut one: it says how much of the
	 * longest block may be the collector's).
	 */
	const watched = async (what: string, phase: () => Promise<void>): Promise<void> => {
		const histogram = monitorEventLoopDelay({ resolution: 1 });
		let longestGc: PerformanceEntry | undefined;
		const gc = new PerformanceObserver((list) => {
			for (const entry of list.getEntries()) {
				longestGc = entry.duration > (longestGc?.duration ?? 0) ? entry : longestGc;
			}
		});
		gc.observe({ entryTypes: ['gc'] });
		histogram.enable();
		const start = performance.now();
		await phase();
		const elapsed = performance.now() - start;
		histogram.disable();
		gc.disconnect();
		const gcText = longestGc ? `${longestGc.duration.toFixed(0)} ms (${gcKind(longestGc)})` : 'none';
		lines.push(`${what.padEnd(40)} ${(elapsed / 1000).toFixed(2)} s; longest host block ${(histogram.max / 1e6).toFixed(0)} ms, p99 ${(histogram.percentile(99) / 1e6).toFixed(0)} ms; longest GC pause ${gcText}`);
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
		await waitUntil(() => api.previewSource.current()?.path === fixtures().basic.path, 'back to the basic session', 120_000);
		rmSync(path, { force: true });
	});

	it('opens it, shows its preview, its raw view and a what-if, printing the longest host block of each', async () => {
		await watched('open (list, select, state, tree, status)', async () => {
			await waitUntil(() => api.sessionsTree.shownProjects().some((project) => project.sessions.some((session) => session.path === path)), 'the large session listed', 120_000);
			await vscode.commands.executeCommand('piCondense.openSession', path);
			await waitUntil(() => api.previewSource.current()?.path === path && api.controller.insight() !== undefined, 'the large session open', 300_000);
		});
		let rows = 0;
		await watched('preview (first rows shown)', async () => {
			const shown = nextReport((r) => r.cause === 'snapshot', 300_000);
			await vscode.commands.executeCommand('piCondense.openPreview');
			rows = (await shown).rowCount;
		});
		const session = api.previewSource.current();
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
	});
});

/** The kind of a collection, from its entry's `detail.kind` (`perf_hooks.constants.NODE_PERFORMANCE_GC_*`). */
function gcKind(entry: PerformanceEntry): string {
	const kind = (entry as PerformanceEntry & { readonly detail?: { readonly kind?: number } }).detail?.kind;
	return ({ 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weak callbacks' } as Record<number, string>)[kind ?? 0] ?? `kind ${String(kind)}`;
}

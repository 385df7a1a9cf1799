/**
 * Context preview benchmark: a 10,000-message synthetic session as pi-condense leaves it. Prints the
 * engine's time to build the page data, the page's first paint after the data arrives (target ≤
 * 200 ms) and its DOM size (target ≤ 3,000 nodes), a what-if recomputation, the raw view of all
 * 10,000 rows, scrolling and a full-text search. Real Chromium, the real bundle, fed by the host's
 * protocol logic; the harness hands messages over as JSON through the DevTools protocol, which is
 * part of the round trips (VS Code uses its own IPC). Nothing asserts.
 */
import { statSync } from 'node:fs';
import { buildSessionContext, getBranch } from '../../src/engine/session';
import { computePreview, previewBase, searchMessages } from '../../src/engine/preview';
import { pageSnapshot, SnapshotRows } from '../../src/host/preview/snapshotRows';
import { prunedSyntheticAgentDir } from '../support/prunedSyntheticSession';
import { SessionFileSource } from '../support/sessionFileSource';
import { WebviewPage } from '../support/webviewPage';
import { watchThread, type ThreadFigures } from '../support/hostThreadWatch';
import type { RenderReport } from '../../src/shared/protocol';
import { mb, median, ms } from './timing';
import { R200 } from '../support/releases';

const MESSAGES = 10_000;
const CONTROL_MESSAGES = 50;
const PAGE_OPTIONS = { viewport: { width: 1280, height: 900 } };

export async function benchPreview(): Promise<void> {
	const fixture = prunedSyntheticAgentDir({ contextMessages: MESSAGES });
	try {
		// Our flush's 2.0.0-shaped entries, with a thinking strip in the settings: 2.0.0 reads both.
		// The session's state is derived before the page opens, as the extension does for the selected
		// session (the engine figures below time it apart: "state + previous call").
		const source = new SessionFileSource(fixture.sessionFile, fixture.agentDir, R200, undefined, true);
		await source.reload();
		const session = source.current();
		if (!session) {
			throw new Error('the synthetic session did not load');
		}
		console.log(`\n## Context preview: ${MESSAGES.toLocaleString('en')} messages (synthetic, ${mb(statSync(fixture.sessionFile).size)})`);
		engineFigures(session.path, session.model, session.config, session.release);
		await pageFigures(source);
	} finally {
		fixture.cleanup();
	}
	await controlFigures();
}

/**
 * The same page open on a 50-message session, where the host has almost nothing to do: what this
 * machine's longest "block" is while Chromium loads the page on the same 2 cores. A block well over
 * the process's time on a core is time the process waited for a core, not work of ours.
 */
async function controlFigures(): Promise<void> {
	const fixture = prunedSyntheticAgentDir({ contextMessages: CONTROL_MESSAGES });
	try {
		const source = new SessionFileSource(fixture.sessionFile, fixture.agentDir, R200, undefined, true);
		await source.reload();
		const page = await WebviewPage.launch(PAGE_OPTIONS);
		try {
			const opened = await watchThread('control-open', async () => {
				await page.load(source, PAGE_OPTIONS);
				await page.waitForReport((r) => r.cause === 'snapshot', 120_000);
			});
			console.log(`page: control, the same open of ${CONTROL_MESSAGES} messages: ${blockText(opened)}`);
		} finally {
			await page.close();
		}
	} finally {
		fixture.cleanup();
	}
}

function engineFigures(path: string, model: Parameters<typeof getBranch>[0], config: Parameters<typeof previewBase>[0]['config'], release: Parameters<typeof previewBase>[0]['release']): void {
	const messages = buildSessionContext(model).messages;
	let start = performance.now();
	const base = previewBase({ sessionPath: path, title: 'synthetic', branch: getBranch(model), messages, config, release });
	const baseMs = performance.now() - start;
	start = performance.now();
	const first = computePreview(base, { overrides: {}, pricing: undefined, now: Date.now() });
	const firstMs = performance.now() - start;
	start = performance.now();
	computePreview(base, { overrides: { 'thinkingStrip.keepLastTurns': 4 }, pricing: undefined, now: Date.now() });
	const whatIfMs = performance.now() - start;
	start = performance.now();
	const found = searchMessages(first.views.before, 'deploy');
	const searchMs = performance.now() - start;
	start = performance.now();
	searchMessages(first.views.before, 'no such text anywhere');
	const fullScanMs = performance.now() - start;
	const rows = new SnapshotRows(1, first);
	const sent = JSON.stringify(pageSnapshot(rows, 'after', 0, undefined)).length;
	const raw = JSON.stringify(pageSnapshot(rows, 'before', 0, undefined)).length;
	console.log(`engine: state + previous call           ${ms(baseMs)}`);
	console.log(`engine: rows, bars, cache impact        ${ms(firstMs)}   (${first.rows.count('before')} raw rows, ${first.rows.count('after')} sent; first message to the page ${mb(sent)} in the sent view, ${mb(raw)} in the raw view)`);
	console.log(`engine: one what-if recomputation       ${ms(whatIfMs)}`);
	console.log(`engine: search of the raw view           ${ms(searchMs)} to the first ${found.hits.length}${found.capped ? '+' : ''} hits; ${ms(fullScanMs)} for a full scan without a hit`);
}

async function pageFigures(source: SessionFileSource): Promise<void> {
	// The page's host side (PreviewHost, its computations in slices) runs on this thread: its longest
	// block is the host's. Chromium is started first (starting it is no host work), then the page is
	// loaded while the blocks are watched.
	const options = PAGE_OPTIONS;
	const profileDir = process.env['PI_CONDENSE_BENCH_PROFILE'];
	const page = await WebviewPage.launch(options);
	try {
		let first: RenderReport | undefined;
		const opened = await watchThread('page-open', async () => {
			await page.load(source, options);
			first = await page.waitForReport((r) => r.cause === 'snapshot', 120_000);
		}, profileDir);
		if (!first) {
			throw new Error('the page never painted');
		}
		console.log(`page: first paint after the data arrives ${ms(first.renderMs)}   (target ≤ 200 ms); ${first.domNodes} DOM nodes (target ≤ 3,000), ${first.renderedRows.length} rows in the DOM; from the page's open: ${blockText(opened)} (target ≤ 50 ms)`);
		const whatIfStart = performance.now();
		let whatIf: RenderReport | undefined;
		const whatIfThread = await watchThread('what-if', async () => {
			const whatIfReport = page.nextReport((r) => r.cause === 'snapshot' && r.whatIfChanges > 0, 60_000);
			await page.page.locator('vscode-textfield[data-control="whatif-keep"] input').fill('4');
			whatIf = await whatIfReport;
		}, profileDir);
		console.log(`page: what-if keep-last 16→4, round trip ${ms(performance.now() - whatIfStart)} (incl. 200 ms input debounce); page render ${ms(whatIf?.renderMs ?? 0)}; ${blockText(whatIfThread)}`);
		const rawStart = performance.now();
		let raw: RenderReport | undefined;
		const rawThread = await watchThread('raw-view', async () => {
			const rawReport = page.nextReport((r) => r.cause === 'view' && r.view === 'before', 60_000);
			await page.page.click('vscode-button[data-control="view-before"]');
			raw = await rawReport;
		}, profileDir);
		console.log(`page: switch to the raw view (${raw?.rowCount ?? 0} rows)  round trip ${ms(performance.now() - rawStart)}; page render ${ms(raw?.renderMs ?? 0)}; ${raw?.domNodes ?? 0} DOM nodes; ${blockText(rawThread)}`);
		const samples = await page.scrollThrough(60);
		const times = samples.map((s) => s.ms);
		console.log(`page: 60 scroll jumps to the end         median ${ms(median(times))}, max ${ms(Math.max(...times))} to the second frame; max ${Math.max(...samples.map((s) => s.nodes))} DOM nodes`);
		const steps = await page.scrollBy(600, 60);
		console.log(`page: 60 scroll steps of 600 px          median ${ms(median(steps.map((s) => s.ms)))}, max ${ms(Math.max(...steps.map((s) => s.ms)))} to the second frame; max ${Math.max(...steps.map((s) => s.nodes))} DOM nodes`);
	} finally {
		await page.close();
	}
}

/**
 * The longest block of the host's thread, then the longest counting only the time the process was
 * on a core (Chromium shares the 2 cores: while it loads the page the bench may wait for one), and
 * the collector's longest pause.
 */
function blockText(figures: ThreadFigures): string {
	const gc = figures.longestGc ? `${ms(figures.longestGc.ms)} (${figures.longestGc.kind})` : 'none';
	return `longest host block ${ms(figures.longestDelayMs)}, on a core ${ms(figures.longestOnCpuMs)}; longest GC pause ${gc}`;
}

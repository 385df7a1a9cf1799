#!/usr/bin/env node
// UI smoke test of the real workbench in headless Chromium, driven as a person would: open the Pi Condense
// activity bar, read the Pi Sessions rows, expand a summary in Pruned Calls, open the session file from the
// Command Palette and hover a ref in it, run Show Status and read its report document and its notification, count
// the palette's commands, hover and click the status bar item, reload the window and find the context preview
// restored by its serializer; then prune a session without a key (the confirmation first) and undo it
// (uiPruneFlow.mjs). Saves
// search Pi Sessions… for words and open the session it finds; open a pruned session's Costs panel; the session file's annotations; screenshots (tree.png, hover.png, annotations.png, search.png, costs.png, status-bar.png): the README's, in media/screenshots/, by default
// (`npm run screenshots`); `npm test` writes them to screenshots-tmp/ so a test run leaves the committed
// ones alone. Uses the same fixtures as the integration tests (integrationFixtures.mjs).
//   node test/harness/ui-smoke.mjs [--shots <dir>]      HARNESS_VERBOSE=1  show the server log
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeIntegrationFixtures } from './integrationFixtures.mjs';
import { makeTempDir, projectRoot, removeDir } from './lib.mjs';
import { palette, runInWorkbench, searchSessions, sessionFiguresInView, workbenchUrl } from './workbenchRun.mjs';
import { ensureHarnessInstalled } from './setup.mjs';
import { confirmThenUndo, paletteCommands, writeIdleSession } from './uiPruneFlow.mjs';

const shotsArg = process.argv.indexOf('--shots');
const shotsDir = resolve(projectRoot, shotsArg > 0 ? process.argv[shotsArg + 1] : join('media', 'screenshots'));
const started = Date.now();
const step = (message) => console.log(`[ui] ${message} (${Date.now() - started} ms)`);

/** A treeitem row of the sidebar whose text contains `text`. */
function row(page, text) {
	return page.locator('.part.sidebar .monaco-list-row', { hasText: text }).first();
}

/** The frame (the markdown preview is a webview: nested iframes) whose body shows `text`. */
async function frameWithText(page, text, timeoutMs) {
	for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((done) => setTimeout(done, 200))) {
		for (const frame of page.frames()) {
			if (await frame.locator('body', { hasText: text }).count().catch(() => 0) > 0 && await frame.locator('.monaco-workbench').count().catch(() => 1) === 0) {
				return frame;
			}
		}
	}
	throw new Error(`no webview shows "${text}"`);
}

/** Line and column (1-based) of the first `needle` in a file. */
function positionOf(path, needle) {
	const lines = readFileSync(path, 'utf8').split('\n');
	for (let i = 0; i < lines.length; i++) {
		const column = lines[i].indexOf(needle);
		if (column >= 0) {
			return { line: i + 1, column: column + 1 };
		}
	}
	throw new Error(`${needle} is not in ${path}`);
}

async function run(page, fixtures, server) {
	// The texts decorations put after the editor's lines (VS Code draws them as ::after content of a span in the line).
	await page.addInitScript(() => {
		window.editorAnnotations = () => [...document.querySelectorAll('.part.editor .view-lines span')]
			.map((span) => getComputedStyle(span, '::after').content)
			.filter((content) => content && content !== 'none' && content !== 'normal')
			.map((content) => content.replace(/^"|"$/g, ''));
	});
	await page.goto(workbenchUrl(server, { workspace: fixtures.workspace, extensionDevelopmentPath: projectRoot }));
	await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
	step('workbench rendered');

	await page.locator('.activitybar .action-item a[aria-label^="Pi Condense"]').first().click({ timeout: 60_000 });
	await row(page, 'Explore').waitFor({ timeout: 30_000 });
	const fitted = await sessionFiguresInView(page);
	step(`at the default side bar width every session row shows its figures whole, also with its button shown (${fitted})`);
	// A wider side bar, as someone reading long rows would drag it, with room for longer rows said in the settings.
	const sidebar = await page.locator('.part.sidebar').boundingBox();
	await page.mouse.move(sidebar.x + sidebar.width, 300);
	await page.mouse.down();
	await page.mouse.move(sidebar.x + 560, 300, { steps: 5 });
	await page.mouse.up();
	mkdirSync(join(fixtures.workspace, '.vscode'), { recursive: true });
	writeFileSync(join(fixtures.workspace, '.vscode', 'settings.json'), JSON.stringify({ 'piCondense.sessions.rowWidth': 72 }));
	await row(page, 'pi-mono').waitFor();
	await row(page, 'Explore the project: list the files').waitFor({ timeout: 30_000 });
	step('Pi Sessions lists the projects and the workspace\'s session by its first message (whole, once piCondense.sessions.rowWidth gives it the room)');

	// A summary row: its refs, what it replaced and its length; its first line beside it.
	const summary = row(page, 't3–t4 ·');
	await summary.waitFor({ timeout: 30_000 });
	await summary.click();
	await row(page, 't3 read(path="src/app.js")').waitFor({ timeout: 10_000 });
	await page.locator('.part.sidebar').screenshot({ path: join(shotsDir, 'tree.png') });
	await row(page, 't3 read(path="src/app.js")').hover();
	await page.locator('.monaco-hover, .custom-hover', { hasText: 'import { shout, pad }' }).first().waitFor({ state: 'visible', timeout: 10_000 });
	step('Pruned Calls: summary expanded, t3 row with the head of its output in its tooltip (tree.png)');
	await page.mouse.move(1000, 400);

	// The session row's own button (the palette offers it only with piCondense.commandPalette.showAll).
	const sessionRow = row(page, 'Explore');
	await sessionRow.hover();
	await sessionRow.locator('.action-label[aria-label^="Open Session File"]').first().click();
	await page.locator('.tab', { hasText: fixtures.basic.path.split('/').pop() }).first().waitFor({ timeout: 20_000 });
	const { line, column } = positionOf(fixtures.basic.path, '`t3`');
	await page.keyboard.press('Control+G');
	await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
	await page.keyboard.type(`${line}:${column + 2}`);
	await page.keyboard.press('Enter');
	await palette(page, 'Show or Focus Hover');
	const hover = page.locator('.monaco-editor .monaco-hover', { hasText: 'Open full output' }).first();
	await hover.waitFor({ state: 'visible', timeout: 20_000 });
	if (!(await hover.textContent()).includes('import { shout, pad }')) {
		throw new Error('the hover over t3 does not show the head of its raw output');
	}
	const box = await hover.boundingBox();
	await page.screenshot({ path: join(shotsDir, 'hover.png'), clip: { x: Math.max(0, box.x - 40), y: Math.max(0, box.y - 40), width: Math.min(900, box.width + 80), height: Math.min(600, box.height + 80) } });
	step('hover over t3 in the session file shows its raw output and command links (hover.png)');
	await hover.locator('a', { hasText: 'Open full output' }).click();
	await page.locator('.tab', { hasText: 't3.md' }).first().waitFor({ timeout: 20_000 });
	step('the hover link opened the recovered output (t3.md)');

	// The session file's annotations, dimmed at the end of each entry's line (word wrap on, as a reader of its long lines has it).
	// Opened again by its row's button: the recovered output took its (preview) tab.
	await row(page, 'Explore').hover();
	await row(page, 'Explore').locator('.action-label[aria-label^="Open Session File"]').first().click();
	await page.locator('.tab.active', { hasText: fixtures.basic.path.split('/').pop() }).first().waitFor({ timeout: 20_000 });
	await palette(page, 'View: Toggle Word Wrap');
	await palette(page, 'View: Toggle Primary Side Bar Visibility');
	await page.locator('.part.editor .view-lines').click({ position: { x: 100, y: 10 } });
	await page.keyboard.press('Control+Home');
	const annotation = '48 tokens · summarized as t2 · dropped by chain b1';
	await page.waitForFunction((text) => editorAnnotations().includes(text), annotation, { timeout: 20_000 }).catch(async () => {
		throw new Error(`the session file does not show "${annotation}"; it shows: ${(await page.evaluate(() => editorAnnotations())).join(' | ')}`);
	});
	await page.locator('.part.editor').screenshot({ path: join(shotsDir, 'annotations.png') });
	// From the keyboard (and for a screen reader): the end of line 7 (Go to Line), then Show Hover reads the annotation out.
	await page.keyboard.press('Control+G');
	await page.locator('.quick-input-widget input').waitFor({ state: 'visible' });
	await page.keyboard.type(`7:${readFileSync(fixtures.basic.path, 'utf8').split('\n')[6].length + 1}`);
	await page.keyboard.press('Enter');
	await palette(page, 'Show or Focus Hover');
	await page.locator('.monaco-editor .monaco-hover', { hasText: `Pi Condense · ${annotation}` }).first().waitFor({ state: 'visible', timeout: 20_000 });
	await page.keyboard.press('Escape');
	await palette(page, 'View: Toggle Word Wrap');
	await palette(page, 'View: Toggle Primary Side Bar Visibility');
	step('the session file shows each entry\'s annotation at the end of its line, and Show Hover at the line\'s end says it (annotations.png)');

	await palette(page, 'Pi Condense: Show Status');
	// The whole report: a read-only markdown document in the markdown preview, its text selectable (copyable).
	await page.locator('.part.editor .tab', { hasText: 'status.md' }).first().waitFor({ timeout: 20_000 });
	const report = await frameWithText(page, 'summarizer models and credentials', 20_000);
	if (await report.locator('h2', { hasText: 'pruner status' }).count() === 0 || await report.locator('li strong', { hasText: 'enabled:' }).count() === 0) {
		throw new Error('the status report has no "pruner status" heading or no "enabled:" item');
	}
	if (await page.locator('.monaco-dialog-box').count() > 0) {
		throw new Error('Show Status opened a dialog');
	}
	// The short one-line state: a toast (VS Code 1.139 run with the smoke-test driver, as here, shows no toasts at all:
	// there the notification center lists it).
	const toast = page.locator('.notification-toast', { hasText: 'Pi Condense status: pruning on' }).first();
	const toasted = await toast.waitFor({ state: 'visible', timeout: 3_000 }).then(() => true, () => false);
	if (!toasted) {
		await palette(page, 'Notifications: Show Notifications');
		await page.locator('.notifications-center .notification-list-item', { hasText: 'Pi Condense status: pruning on' }).first().waitFor({ timeout: 20_000 });
	}
	step(`palette command "Show Status" opened its report as a markdown document (status.md) and said the state in ${toasted ? 'a toast' : 'a notification (no toasts under the smoke-test driver)'}`);
	await palette(page, 'Notifications: Clear All Notifications');

	// Search Pi Sessions…: words typed, the message found in the session index, Enter opens its session's preview.
	await searchSessions(page, 'upstream timeout', (shown) => shown.locator('.quick-input-list .monaco-list-row', { hasText: 'upstream timeout on /api/items/61' }).first().waitFor({ timeout: 30_000 }));
	const searchBox = await page.locator('.quick-input-widget').boundingBox();
	await page.screenshot({ path: join(shotsDir, 'search.png'), clip: { x: Math.max(0, searchBox.x - 8), y: Math.max(0, searchBox.y - 8), width: searchBox.width + 16, height: searchBox.height + 16 } });
	await page.keyboard.press('Enter');
	await page.locator('.part.editor .tab', { hasText: 'Context: Explore the project' }).first().waitFor({ timeout: 20_000 });
	step('Search Pi Sessions… found "upstream timeout" in the session index and Enter opened its session\'s preview (search.png)');
	// The steps below open the preview from the status bar themselves.
	await palette(page, 'View: Close All Editors');

	// Ours, as package.json's when clauses offer them (test/unit/host/paletteFit.test.ts): VS Code adds a "Focus on … View" per view.
	// Pi is not connected here, so Connect Pi to VS Code… is offered, and neither Disconnect nor the last request of a live Pi.
	const offered = await paletteCommands(page);
	const ours = offered.filter((title) => !/^Pi Condense: Focus on .* View$/.test(title));
	if (ours.length > 10 || !ours.includes('Pi Condense: Connect Pi to VS Code…')
		|| offered.some((title) => /Turn Pruning On|Install pi-condense|Clear Session Filter|Disconnect Pi|Open the Last Request/.test(title))) {
		throw new Error(`the palette offers ${offered.length} Pi Condense commands: ${offered.join(', ')}`);
	}
	step(`the palette offers ${ours.length} Pi Condense commands that fit the moment (and VS Code's ${offered.length - ours.length} view focus commands): ${ours.join(', ')}`);

	// The basic session's reclaim as the release the extension follows renders it (2.0.0, which wrote it: 1.1k).
	const status = page.locator('.statusbar-item', { hasText: /prune: ON · 5\.1k->\d+(\.\d)?k \(-\d+%\)/ }).first();
	await status.waitFor({ timeout: 20_000 });
	await status.hover();
	const tooltip = page.locator('.monaco-hover, .custom-hover', { hasText: 'Summarizer so far' }).first();
	await tooltip.waitFor({ state: 'visible', timeout: 10_000 });
	const statusBox = await status.boundingBox();
	const tipBox = await tooltip.boundingBox();
	const left = Math.max(0, Math.min(statusBox.x, tipBox.x) - 20);
	const top = Math.max(0, tipBox.y - 20);
	await page.screenshot({ path: join(shotsDir, 'status-bar.png'), clip: { x: left, y: top, width: Math.min(1280 - left, Math.max(statusBox.x + statusBox.width, tipBox.x + tipBox.width) - left + 20), height: statusBox.y + statusBox.height - top + 4 } });
	step('status bar shows pi-condense\'s status with its tooltip (status-bar.png)');
	// The tooltip is tall now (Pi, the two measures, the cache line) and lies over the editor: let it go first.
	await page.mouse.move(640, 5);
	await page.keyboard.press('Escape');
	await tooltip.waitFor({ state: 'hidden', timeout: 10_000 });
	await page.locator('.part.editor').click({ position: { x: 400, y: 300 } });
	await status.click();
	// piCondense.openPreview: the context preview panel, a webview (VS Code lays webviews over the editor
	// part, outside its DOM) whose tab is titled "Context: <session>".
	await page.locator('.part.editor .tab', { hasText: 'Context: Explore the project' }).first().waitFor({ timeout: 20_000 });
	await page.waitForFunction(() => document.querySelector('iframe.webview') !== null, undefined, { timeout: 20_000 });
	const shownRows = await previewRowCount(page);
	step(`clicking the status bar item opened the context preview (${shownRows} rows on screen)`);

	// "Developer: Reload Window" (VS Code saves its editors first) brings the panel back through the
	// extension's webview serializer, with its rows.
	// Waited for from before the reload: a fast one could load before a waiter set up after it.
	const reloaded = page.waitForEvent('load', { timeout: 60_000 });
	await palette(page, 'Developer: Reload Window');
	await reloaded;
	await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
	await page.locator('.part.editor .tab', { hasText: 'Context: Explore the project' }).first().waitFor({ timeout: 30_000 });
	const restoredRows = await previewRowCount(page);
	// VS Code gives the keyboard back to the restored editor, the preview, in steps once its page has loaded (the
	// webview's frame, then the frames inside it, the last seconds after the reload on a loaded machine): a quick
	// pick opened before the last step closes when the focus moves on. Waited for until the page itself has it.
	await previewHasKeyboard(page);
	step(`after a window reload the context preview is back with its rows (${restoredRows} on screen) and has the keyboard`);

	await confirmThenUndo(page, fixtures.idle, { palette, step, shotsDir });

	// The Costs panel of a session with recorded usage and pruning (large-bulk, named "/mode"): opened by its button in the page.
	// The session by its name is the first row; Enter once the messages found in the index have come after it (as above).
	// Any of them: which ones show first is bm25's order, and the pick shows four rows here (the "/mode" user message
	// ranked fourth, just behind another session's "modes/index.ts", on 2026-12-06).
	await searchSessions(page, '/mode', async (shown) => {
		await shown.locator('.quick-input-list .monaco-list-row', { hasText: 'msgs' }).filter({ hasText: '/mode' }).first().waitFor({ timeout: 30_000 });
		await shown.locator('.quick-input-list .monaco-list-row', { hasText: /(?:You|Assistant|Tool|Shell|Extension|Summary): / }).first().waitFor({ timeout: 30_000 });
	});
	await page.keyboard.press('Enter');
	await page.locator('.part.editor .tab', { hasText: 'Context: /mode' }).first().waitFor({ timeout: 30_000 });
	const costsFrame = await frameWith(page, 'vscode-button[data-control="costs"]');
	await costsFrame.locator('vscode-button[data-control="costs"]').click();
	await costsFrame.locator('table.prunes').waitFor({ timeout: 60_000 });
	await costsFrame.locator('.costs-chart canvas').waitFor({ timeout: 10_000 });
	await page.locator('.part.editor').screenshot({ path: join(shotsDir, 'costs.png') });
	step('the Costs panel of a pruned session with recorded usage: the chart and every prune accounted (costs.png)');
}

/** The frame (a webview's, nested) that holds `selector`, once one does. */
async function frameWith(page, selector, timeoutMs = 30_000) {
	for (const deadline = Date.now() + timeoutMs; ;) {
		for (const frame of page.frames()) {
			if (await frame.locator(selector).count().catch(() => 0) > 0) {
				return frame;
			}
		}
		if (Date.now() > deadline) {
			throw new Error(`no frame shows ${selector}`);
		}
		await new Promise((done) => setTimeout(done, 200));
	}
}

/** Waits until the frame showing the preview's rows has the keyboard (as VS Code gives it to the active editor). */
async function previewHasKeyboard(page, timeoutMs = 60_000) {
	for (const deadline = Date.now() + timeoutMs; ;) {
		for (const frame of page.frames()) {
			if (await frame.evaluate(() => document.querySelector('.row') !== null && document.hasFocus()).catch(() => false)) {
				return;
			}
		}
		if (Date.now() > deadline) {
			throw new Error('the restored preview never got the keyboard back');
		}
		await new Promise((done) => setTimeout(done, 100));
	}
}

/** Waits until a webview frame shows the preview's rows; answers how many are in its DOM. */
async function previewRowCount(page, timeoutMs = 30_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		for (const frame of page.frames()) {
			const count = await frame.locator('.row').count().catch(() => 0);
			if (count > 0) {
				return count;
			}
		}
		if (Date.now() > deadline) {
			throw new Error('no webview frame shows the preview\'s rows');
		}
		await new Promise((done) => setTimeout(done, 200));
	}
}

ensureHarnessInstalled();
if (!existsSync(join(projectRoot, 'dist', 'extension.js'))) {
	throw new Error('dist/extension.js is missing: run npm run test:ui (it builds first)');
}
mkdirSync(shotsDir, { recursive: true });
const agentDir = realpathSync(makeTempDir('pi-condense-agent-'));
// A plain project name in the screenshots rather than a temp dir's random one.
const workspaceParent = realpathSync(makeTempDir('pi-condense-ui-'));
const workspace = join(workspaceParent, 'demo-project');
mkdirSync(workspace);
const fixtures = { ...writeIntegrationFixtures(agentDir, workspace), idle: writeIdleSession(agentDir, join(workspaceParent, 'other-project')) };
await runInWorkbench('ui', {
	workspace,
	env: { PI_CODING_AGENT_DIR: agentDir },
	cleanup: () => {
		removeDir(agentDir);
		removeDir(workspaceParent);
	},
}, (page, server) => run(page, fixtures, server));

#!/usr/bin/env node
// Compare with Previous Request in the real workbench, driven as a person would: a real Pi 1.6.0 (RPC mode, on the
// Node Pi 1.x needs) with the bridge and the `stub-pruner` test package loaded before it, against the fake model
// server on 127.0.0.1, writing its session into the agent dir VS Code reads; VS Code sees it live, the person
// selects it in Pi Sessions, Pi makes two turns (the first with a tool call whose output the stub-pruner then
// replaces), and the palette's Compare with Previous Request opens the diff editor, titled with where the two
// requests first differ. Saves compare.png (the README's and docs/live-sessions.md's, in media/screenshots/ by
// default; `npm test` writes it to screenshots-tmp/). Needs out/test (the fake server and Pi driver): its stage
// builds the tests.
//   node test/harness/ui-compare.mjs [--shots <dir>]      HARNESS_VERBOSE=1  show the server log
import { cpSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { writeIntegrationFixtures } from './integrationFixtures.mjs';
import { makeTempDir, projectRoot, removeDir } from './lib.mjs';
import { ensurePiNode } from './piNode.mjs';
import { ensureHarnessInstalled } from './setup.mjs';
import { palette, runInWorkbench, sessionFiguresInView, workbenchUrl } from './workbenchRun.mjs';

const require = createRequire(import.meta.url);
const { startFakeLlmServer } = require('../../out/test/support/fakeLlmServer.js');
const { RealPi, sessionFolderName, writeFakeProvider } = require('../../out/test/support/realPi.js');

const shotsArg = process.argv.indexOf('--shots');
const shotsDir = resolve(projectRoot, shotsArg > 0 ? process.argv[shotsArg + 1] : join('media', 'screenshots'));
const started = Date.now();
const step = (message) => console.log(`[ui-compare] ${message} (${Date.now() - started} ms)`);

function row(page, text) {
	return page.locator('.part.sidebar .monaco-list-row', { hasText: text }).first();
}

/** A Pi with the bridge (as Connect installs it) after the stub-pruner, its sessions in VS Code's agent dir. */
function startPi({ piAgentDir, agentDir, workspace, runtimeDir, serverUrl }) {
	writeFakeProvider(piAgentDir, serverUrl);
	cpSync(join(projectRoot, 'dist', 'bridge'), join(piAgentDir, 'pi-condense-vscode-bridge'), { recursive: true });
	writeFileSync(join(piAgentDir, 'settings.json'), JSON.stringify({ packages: [join(projectRoot, 'test', 'fixtures', 'pi-extensions', 'stub-pruner'), './pi-condense-vscode-bridge'] }));
	return RealPi.start({ agentDir: piAgentDir, cwd: workspace, env: { XDG_RUNTIME_DIR: runtimeDir }, args: ['--session-dir', join(agentDir, 'sessions', sessionFolderName(workspace))] });
}

/** Waits until a webview's frame (the preview's, nested) holds `selector`. */
async function webviewShows(page, selector, timeoutMs) {
	for (const deadline = Date.now() + timeoutMs; ;) {
		for (const frame of page.frames()) {
			if (await frame.locator(selector).count().catch(() => 0) > 0) {
				return;
			}
		}
		if (Date.now() > deadline) {
			throw new Error(`no webview shows ${selector}`);
		}
		await new Promise((done) => setTimeout(done, 200));
	}
}

async function run(page, server, setup) {
	await page.goto(workbenchUrl(server, { workspace: setup.workspace, extensionDevelopmentPath: projectRoot }));
	await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
	await page.locator('.activitybar .action-item a[aria-label^="Pi Condense"]').first().click({ timeout: 60_000 });
	await row(page, 'Explore').waitFor({ timeout: 30_000 });
	step('workbench rendered, Pi Sessions listed');

	const llm = await startFakeLlmServer({ text: 'I listed the files and ran the tests: all 3 pass.' });
	setup.stops.push(() => llm.close());
	const pi = startPi({ ...setup, serverUrl: llm.url });
	setup.stops.push(() => pi.stop());
	// Pi writes its session file once it has a message: the first prompt.
	llm.enqueue({ text: 'Four files: src/app.js, src/util.js, test/app.test.js and README.md.' });
	await pi.prompt('List the files of the project.');
	const live = page.locator('.part.sidebar .monaco-list-row[aria-label^="List the files of the project."]').filter({ hasText: 'live ·' }).first();
	await live.waitFor({ timeout: 60_000 });
	await live.click();
	step('the Pi\'s session shows live in Pi Sessions (VS Code is connected to its bridge) and is selected');
	// Kept from now on: a turn with a tool call, then one whose request has that call's output stubbed by the stub-pruner.
	llm.enqueue(
		{ text: 'Running them.', toolCalls: [{ id: 'call_1', name: 'bash', arguments: { command: 'printf "app.test.js\\n  ✓ greets\\n  ✓ shouts\\n  ✓ pads\\n\\n3 passing (4 ms)\\n"' } }] },
		{ text: 'All 3 tests pass.' },
	);
	await pi.prompt('Now run the tests.');
	await pi.prompt('Summarize what you did.');
	step('Pi made two more turns (a tool call, then a request with its output stubbed)');
	const fitted = await sessionFiguresInView(page);
	step(`at the default side bar width the live session's row and the other show their figures whole (${fitted})`);

	// The palette lists the commands of the moment it opens: it is opened once the extension keeps both requests (fetched
	// from the bridge as they come; the preview's Last sent offers Compare from then on). In CI it once opened before.
	await webviewShows(page, 'vscode-button[data-control="compare-requests"]', 60_000);
	await palette(page, 'Pi Condense: Compare with Previous Request');
	const diff = page.locator('.monaco-diff-editor').first();
	await diff.waitFor({ timeout: 30_000 });
	const tab = page.locator('.tabs-container .tab.active');
	await tab.waitFor({ timeout: 10_000 });
	const title = (await tab.getAttribute('aria-label')) ?? '';
	if (!/request \d+ ↔ \d+ · first difference at message \d+ \(toolResult · bash\)/.test(title)) {
		throw new Error(`the diff editor's tab says "${title}", not where the two requests first differ`);
	}
	await page.locator('.monaco-diff-editor .line-insert, .monaco-diff-editor .char-insert').first().waitFor({ timeout: 10_000 });
	await page.mouse.move(1000, 700);
	await page.waitForTimeout(500);
	await page.screenshot({ path: join(shotsDir, 'compare.png') });
	step(`Compare with Previous Request opened the diff editor: "${title}" (compare.png)`);
}

ensureHarnessInstalled();
ensurePiNode(projectRoot, (message) => console.log(`[ui-compare] ${message}`));
mkdirSync(shotsDir, { recursive: true });
const agentDir = realpathSync(makeTempDir('pi-condense-agent-'));
const piAgentDir = realpathSync(makeTempDir('pi-condense-pi-agent-'));
const runtimeDir = realpathSync(makeTempDir('pi-condense-run-'));
const workspaceParent = realpathSync(makeTempDir('pi-condense-ui-'));
const workspace = join(workspaceParent, 'demo-project');
mkdirSync(workspace);
writeIntegrationFixtures(agentDir, workspace);
const setup = { agentDir, piAgentDir, runtimeDir, workspace, stops: [] };
await runInWorkbench('ui-compare', {
	workspace,
	env: { PI_CODING_AGENT_DIR: agentDir, XDG_RUNTIME_DIR: runtimeDir },
	cleanup: () => {
		for (const dir of [agentDir, piAgentDir, runtimeDir, workspaceParent]) {
			removeDir(dir);
		}
	},
}, async (page, server) => {
	try {
		await run(page, server, setup);
	} finally {
		for (const stop of setup.stops.reverse()) {
			await stop();
		}
	}
});

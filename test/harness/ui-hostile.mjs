#!/usr/bin/env node
// A hostile session in the real workbench (headless Chromium on code-server): its title is a markdown
// link to a command that would type into the user's terminal, one of its lines has a `type` that is a
// link to another command (so the parse diagnostic quotes it), and its header names a project whose
// .pi/settings.json has an npmCommand that writes a marker file. The session is selected, Show Status,
// Show Summarizer Stats and Summarize Pending Batches Now are run (their notices name the session), and
// after each step every notification in the DOM is read (and Search Pi Sessions… shows the title found as typed): none may hold a link (`command:`, a web
// address or `file:`), the hostile text must be shown as typed, and the marker must never appear.
//   node test/harness/ui-hostile.mjs      HARNESS_VERBOSE=1  show the server log
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, projectRoot, removeDir } from './lib.mjs';
import { palette, runInWorkbench, searchSessions, workbenchUrl } from './workbenchRun.mjs';
import { ensureHarnessInstalled } from './setup.mjs';

const started = Date.now();
const step = (message) => console.log(`[ui-hostile] ${message} (${Date.now() - started} ms)`);

const TERMINAL_COMMAND = `command:workbench.action.terminal.sendSequence?${encodeURIComponent(JSON.stringify({ text: 'echo pwned\n' }))}`;
const TITLE = `[Show Log](${TERMINAL_COMMAND}) see https://attacker.example/x`;
const ENTRY_TYPE = '[Open File](command:workbench.action.files.newUntitledFile)';

function writeHostileAgentDir(agentDir, workspace, project, marker) {
	const sessions = join(agentDir, 'sessions', '--hostile--');
	mkdirSync(sessions, { recursive: true });
	mkdirSync(join(project, '.pi'), { recursive: true });
	const program = join(project, 'evil.sh');
	writeFileSync(program, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
	writeFileSync(join(project, '.pi', 'settings.json'), JSON.stringify({ npmCommand: [program], packages: ['npm:other'] }));
	// Trusted by Pi too: even then the project's npmCommand is never run.
	writeFileSync(join(agentDir, 'trust.json'), JSON.stringify({ [project]: true }));
	writeFileSync(join(agentDir, 'settings.json'), JSON.stringify({ packages: ['npm:pi-condense'], contextPrune: { enabled: true } }));
	const at = (seconds) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)).toISOString();
	const lines = [
		{ type: 'session', version: 3, id: '01a22b2a-f0d9-7c01-8264-6403bf89dbdf', timestamp: at(0), cwd: workspace },
		{ type: 'message', id: 'a0000001', parentId: null, timestamp: at(1), message: { role: 'user', content: TITLE, timestamp: Date.parse(at(1)) } },
		{ type: ENTRY_TYPE },
		{ type: 'message', id: 'a0000002', parentId: 'a0000001', timestamp: at(2), message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }], api: 'openai-completions', provider: 'openai', model: 'gpt-4o-mini', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'stop', timestamp: Date.parse(at(2)) } },
	];
	writeFileSync(join(sessions, '2026-01-01T00-00-00-000Z_01a22b2a-f0d9-7c01-8264-6403bf89dbdf.jsonl'), lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
	// The project the header names is the workspace; the hostile settings sit in it.
	return program;
}

/** Every link (an element with an href) inside notifications, toasts and the notification center alike. */
async function notificationLinks(page) {
	return page.evaluate(() => [...document.querySelectorAll('.notifications-toasts [href], .notifications-center [href], .notification-list-item [href]')]
		.map((element) => `${element.textContent} -> ${element.getAttribute('href')}`));
}

async function checkNotifications(page, marker, what) {
	const links = await notificationLinks(page);
	if (links.length > 0) {
		throw new Error(`${what}: a notification holds links: ${links.join(', ')}`);
	}
	if (existsSync(marker)) {
		throw new Error(`${what}: the project's npmCommand ran (marker ${marker} exists)`);
	}
}

/**
 * The text of the notification that contains `text`: its toast, or, where the toast is already gone or
 * VS Code shows none (today's VS Code may hold it back), its row in the notification center.
 */
async function notification(page, text, marker, what) {
	const toast = page.locator('.notification-toast', { hasText: text }).first();
	if (await toast.waitFor({ state: 'visible', timeout: 3_000 }).then(() => true, () => false)) {
		await checkNotifications(page, marker, what);
		return toast.textContent();
	}
	await palette(page, 'Notifications: Show Notifications');
	const row = page.locator('.notifications-center .notification-list-item', { hasText: text }).first();
	await row.waitFor({ state: 'visible', timeout: 20_000 });
	const found = await row.textContent();
	await checkNotifications(page, marker, `${what} (notification center)`);
	await palette(page, 'Notifications: Hide Notifications');
	return found;
}

async function run(page, server, workspace, marker) {
	await page.goto(workbenchUrl(server, { workspace, extensionDevelopmentPath: projectRoot }));
	await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
	await page.locator('.activitybar .action-item a[aria-label^="Pi Condense"]').first().click({ timeout: 60_000 });
	const sessionRow = page.locator('.part.sidebar .monaco-list-row', { hasText: '[Show Log]' }).first();
	await sessionRow.waitFor({ timeout: 30_000 });
	await sessionRow.click();
	const problem = await notification(page, 'entry has no string', marker, 'selecting the session (parse problem)');
	if (!problem.replaceAll('\u200b', '').includes(ENTRY_TYPE)) {
		throw new Error(`the parse problem does not show the entry's type as typed: ${problem}`);
	}
	step('selected: the parse problem quotes the hostile type as text, with no link');

	// Each notice is told apart by its own words; each names the session by its hostile title.
	for (const [command, own] of [['Pi Condense: Show Status', 'Pi Condense status'], ['Pi Condense: Show Summarizer Stats', 'pruner stats'], ['Pi Condense: Summarize Pending Batches Now', 'nothing flushed']]) {
		await palette(page, command);
		const text = await notification(page, own, marker, command);
		if (!text.replaceAll('\u200b', '').includes(TITLE.slice(0, 40))) {
			throw new Error(`${command}: the notice does not name the session by its title as typed: ${text}`);
		}
		step(`${command}: the notice names the session as typed, with no link`);
		await palette(page, 'Notifications: Clear All Notifications');
	}
	// Search Pi Sessions…: the hostile title and the message found are shown as typed, with no link.
	const found = page.locator('.quick-input-list .monaco-list-row', { hasText: 'You:' }).first();
	await searchSessions(page, 'attacker example', () => found.waitFor({ timeout: 30_000 }));
	const foundText = (await found.textContent()).replaceAll('\u200b', '');
	if (!foundText.includes('[Show Log](command:') || await page.locator('.quick-input-list a[href]').count() > 0) {
		throw new Error(`Search Pi Sessions… shows the hostile message other than as typed, or as a link: ${foundText}`);
	}
	await page.keyboard.press('Escape');
	step('Search Pi Sessions…: the message found shows the hostile title as typed, with no link');
	if (existsSync(marker)) {
		throw new Error(`the project's npmCommand ran (marker ${marker} exists)`);
	}
	step('no process was started');
}

ensureHarnessInstalled();
if (!existsSync(join(projectRoot, 'dist', 'extension.js'))) {
	throw new Error('dist/extension.js is missing: run the build first');
}
const agentDir = realpathSync(makeTempDir('pi-condense-hostile-agent-'));
const workspace = realpathSync(makeTempDir('pi-condense-hostile-ws-'));
const marker = join(agentDir, 'MARKER-hostile-command-ran');
writeHostileAgentDir(agentDir, workspace, workspace, marker);
// No npm_config_prefix: nothing in the environment answers for npm's global folder.
await runInWorkbench('ui-hostile', {
	workspace,
	env: { PI_CODING_AGENT_DIR: agentDir, npm_config_prefix: '', NPM_CONFIG_PREFIX: '' },
	// Every command in the palette: Show Summarizer Stats and Summarize Now are among those it offers only when they fit.
	settings: { 'piCondense.commandPalette.showAll': true },
	cleanup: () => {
		removeDir(agentDir);
		removeDir(workspace);
	},
}, (page, server) => run(page, server, workspace, marker));

// Steps of the UI smoke test about pruning, driven as a person would in the real workbench (dialogs are real
// here: VS Code refuses them in extension test runs): the palette's Pi Condense commands in a typical state; a
// prune of a session whose model has no key (the confirmation comes first and nothing is written until
// "Summarize offline"), then Undo Last Prune (its own confirmation), which restores the file byte for byte.
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { searchSessions, settled } from './workbenchRun.mjs';

export const IDLE_TITLE = 'Build the other project';
const IDLE_ID = '0b1d5e55';

/** A session of another project Pi left a minute ago: one finished bash batch, on anthropic/claude-sonnet-4-5 (no key here). */
export function writeIdleSession(agentDir, cwd) {
	const folder = join(agentDir, 'sessions', '--other-project--');
	mkdirSync(folder, { recursive: true });
	const at = (seconds) => new Date(Date.UTC(2026, 0, 2, 9, 0, seconds)).toISOString();
	const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
	const assistant = (content, stopReason, seconds) => ({ role: 'assistant', content, api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage, stopReason, timestamp: Date.parse(at(seconds)) });
	const output = Array.from({ length: 60 }, (_, i) => `build step ${i}: compiled src/module${i}.ts in ${i * 7} ms`).join('\n');
	const lines = [
		{ type: 'session', version: 3, id: '0b1d5e55-0000-7000-8000-00000000c0de', timestamp: at(0), cwd },
		{ type: 'message', id: 'b0000001', parentId: null, timestamp: at(1), message: { role: 'user', content: [{ type: 'text', text: IDLE_TITLE }], timestamp: Date.parse(at(1)) } },
		{ type: 'message', id: 'b0000002', parentId: 'b0000001', timestamp: at(2), message: assistant([{ type: 'toolCall', id: 'bash-1', name: 'bash', arguments: { command: 'npm run build' } }], 'toolUse', 2) },
		{ type: 'message', id: 'b0000003', parentId: 'b0000002', timestamp: at(3), message: { role: 'toolResult', toolCallId: 'bash-1', toolName: 'bash', content: [{ type: 'text', text: output }], isError: false, timestamp: Date.parse(at(3)) } },
		{ type: 'message', id: 'b0000004', parentId: 'b0000003', timestamp: at(4), message: assistant([{ type: 'text', text: 'Built.' }], 'stop', 4) },
	];
	const path = join(folder, '2026-01-02T09-00-00-000Z_0b1d5e55-0000-7000-8000-00000000c0de.jsonl');
	writeFileSync(path, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
	const aMinuteAgo = new Date(Date.now() - 60_000);
	utimesSync(path, aMinuteAgo, aMinuteAgo);
	return path;
}

/** The palette's Pi Condense commands as it offers them now. */
export async function paletteCommands(page) {
	await page.keyboard.press('F1');
	const input = page.locator('.quick-input-widget input');
	await input.waitFor({ state: 'visible' });
	await input.fill('>Pi Condense: ');
	await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Pi Condense:' }).first().waitFor({ timeout: 20_000 });
	// The palette lists its commands, then may add similar ones: read the list once it has stopped changing. Each row's
	// label only: a row's hidden detail may still hold the text of an earlier pick's row (two searches before this).
	const texts = await settled(() => page.locator('.quick-input-list .monaco-list-row .label-name').allTextContents());
	await page.keyboard.press('Escape');
	return texts.filter((text) => text.includes('Pi Condense:')).map((text) => text.replace(/^.*?(Pi Condense: [^\n]*?)(recently used|other commands|similar commands)?$/s, '$1').trim());
}

/** Chooses the idle session, asks to summarize it, reads the confirmation, summarizes offline, then undoes it. */
export async function confirmThenUndo(page, path, { palette, step, shotsDir }) {
	const original = readFileSync(path);
	// The sessions whose name or file holds the text come first (the file name holds the id).
	await searchSessions(page, IDLE_ID, (shown) => shown.locator('.quick-input-list .monaco-list-row.focused', { hasText: IDLE_ID }).first().waitFor({ timeout: 20_000 }));
	await page.keyboard.press('Enter');
	await page.locator('.statusbar-item', { hasText: 'prune: 1 pending' }).first().waitFor({ timeout: 30_000 });
	step('the idle session selected: the status bar says prune: 1 pending');

	await palette(page, 'Pi Condense: Summarize Pending Batches Now');
	const dialog = page.locator('.monaco-dialog-box').first();
	await dialog.waitFor({ state: 'visible', timeout: 60_000 });
	const asked = (await dialog.textContent()) ?? '';
	for (const expected of ['Summarize the 1 pending batch of', 'No key for anthropic/claude-sonnet-4-5', 'summaries will be extractive, offline', 'Set up a key…', 'Summarize offline']) {
		if (!asked.includes(expected)) {
			throw new Error(`the confirmation does not say "${expected}": ${asked}`);
		}
	}
	if (!readFileSync(path).equals(original)) {
		throw new Error('the session was written before the confirmation was answered');
	}
	await page.screenshot({ path: join(shotsDir, 'confirm.png') });
	step('Summarize Now asked first, saying there is no key and summaries would be offline; nothing written yet (confirm.png)');
	await dialog.locator('.monaco-button', { hasText: 'Summarize offline' }).click();
	// Read as the screen reader hears it (an information notification may show no toast in this unfocused page).
	const told = page.locator('.monaco-alert', { hasText: 'offline (extractive, no LLM call' }).first();
	await told.waitFor({ state: 'attached', timeout: 60_000 });
	if (readFileSync(path).equals(original)) {
		throw new Error('"Summarize offline" wrote nothing');
	}
	// The estimate the question gave, and what the prune reclaimed, side by side.
	const toldText = (await told.textContent()) ?? '';
	if (!/Estimated about [\d.]+k? tokens, reclaimed [\d.]+k? tokens \([\d.]+k? → [\d.]+k? tokens sent\)/.test(toldText)) {
		throw new Error(`the notification does not set the estimate beside the result: ${toldText}`);
	}
	if (!/Summarize now would reclaim about [\d.]+k? tokens/.test(asked)) {
		throw new Error(`the confirmation does not say the dry run's estimate: ${asked}`);
	}
	step('summarized offline; the notification says what was done and how, the estimate beside the result');
	await palette(page, 'Notifications: Clear All Notifications');

	await palette(page, 'Pi Condense: Undo Last Prune');
	const undo = page.locator('.monaco-dialog-box').first();
	await undo.waitFor({ state: 'visible', timeout: 20_000 });
	await undo.locator('.monaco-button', { hasText: 'Undo Prune' }).click();
	await page.locator('.monaco-alert', { hasText: 'undid the last prune' }).first().waitFor({ state: 'attached', timeout: 30_000 });
	if (!readFileSync(path).equals(original)) {
		throw new Error('after Undo Last Prune the session file is not byte for byte what it was');
	}
	step('Undo Last Prune restored the session file byte for byte');
}

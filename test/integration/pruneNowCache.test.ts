/**
 * What pruning now would do to the provider's cache, in real VS Code: on a session whose last request
 * (Anthropic, 100,002 prompt tokens: 40,000 read, 60,000 written) was a minute ago, the status bar's
 * tooltip says how long the cache stays warm and what pruning now re-writes (the prompt after the
 * first pending call, less what the prune removes) and costs; the Summarize Now confirmation says the
 * same against waiting for it to expire. Ten minutes later, the cache has expired: no extra cache write.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { charsToTokens } from '../../src/engine/condense';
import type { ExtensionApi } from '../../src/host/extensionApi';
import { SessionBuilder } from '../support/sessionBuilder';
import { activeApi, fixtures, logText, waitUntil } from './helpers';

const MINUTE = 60_000;
const OUTPUT = Array.from({ length: 80 }, (_, i) => `test ${i}: passed in ${i * 3} ms`).join('\n');
const usage = (cacheRead: number, cacheWrite: number): Record<string, unknown> => ({
	input: 2, output: 10, cacheRead, cacheWrite, totalTokens: 12 + cacheRead + cacheWrite,
	cost: { input: 0.000006, output: 0.00015, cacheRead: cacheRead * 0.3e-6, cacheWrite: cacheWrite * 3.75e-6, total: 0.000156 + cacheRead * 0.3e-6 + cacheWrite * 3.75e-6 },
});

describe('what pruning now does to the cache', function () {
	this.timeout(90_000);
	let api: ExtensionApi;
	const folder = (): string => join(fixtures().sessionsDir, '--cache-line-test--');
	const settings = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('piCondense');

	/** A session whose tool call and reply were `ago` ms ago, idle, selected with its one pending batch. */
	async function session(name: string, ago: number): Promise<string> {
		const path = join(folder(), `2026-12-06T00-00-00-000Z_${name}.jsonl`);
		const at = Date.now() - ago;
		const s = new SessionBuilder({ id: name, cwd: fixtures().workspace, timestamp: new Date(at - MINUTE).toISOString() });
		s.user('run the tests');
		s.message({ role: 'assistant', content: [{ type: 'toolCall', id: `${name}-c1`, name: 'bash', arguments: { command: 'npm test' } }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: usage(0, 40_000), stopReason: 'toolUse', timestamp: at - 30_000 });
		s.toolResult(`${name}-c1`, 'bash', OUTPUT);
		s.message({ role: 'assistant', content: [{ type: 'text', text: 'All 80 pass.' }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: usage(40_000, 60_000), stopReason: 'stop', timestamp: at });
		mkdirSync(folder(), { recursive: true });
		writeFileSync(path, s.text());
		const idle = new Date(Date.now() - MINUTE);
		utimesSync(path, idle, idle);
		await waitUntil(() => api.controller.knowsSession(path), 'the session listed');
		await vscode.commands.executeCommand('piCondense.selectSession', path);
		await waitUntil(() => api.controller.insight()?.pending.length === 1 && api.controller.selected === path, 'its pending batch read');
		return path;
	}

	const tooltip = (): string => (api.statusBar.item.tooltip as vscode.MarkdownString).value.replace(/\\/g, '');

	before(async () => {
		api = await activeApi();
		await api.controller.updatePruneSettings((raw) => ({ ...raw, enabled: true, minBatchChars: 50 }));
	});

	after(async () => {
		await settings().update('confirmPrune', false, vscode.ConfigurationTarget.Global);
		rmSync(folder(), { recursive: true, force: true });
		await vscode.commands.executeCommand('piCondense.selectSession', fixtures().basic.path);
	});

	it('warm: the tooltip and the confirmation say for how long, and what pruning now re-writes and costs', async () => {
		await session('warm', MINUTE);
		// What the prune takes off: its dry run's figure, the one the preview and the confirmation show.
		const removed = charsToTokens((await api.controller.flushEstimateFor(api.controller.selected ?? '', 'now')).reclaimChars);
		assert.ok(removed > 0);
		// 100,002 cached, less the 40,012 before the call's output, less what the prune removes.
		const rewrite = 100_002 - 40_012 - removed;
		const cost = rewrite * ((0.000006 + 60_000 * 3.75e-6) / 60_002 - 0.3e-6);
		// The countdown shows first; the re-write's estimate joins it once the dry run is done (late on a loaded machine).
		await waitUntil(() => /cache warm for .*: pruning now re-writes/.test(tooltip()), 'the cache line in the tooltip, with its estimate');
		const line = /cache warm for (\d) more minutes \(until [^)]+\): pruning now re-writes ~([\d.]+)k tokens \(~\$(\d+\.\d+)\)/.exec(tooltip());
		assert.ok(line, tooltip());
		assert.ok(['3', '4'].includes(line[1] ?? ''), `minutes left: ${line[1]}`);
		assert.equal(line[2], (rewrite / 1000).toFixed(1));
		assert.equal(line[3], cost.toFixed(3));

		await settings().update('confirmPrune', true, vscode.ConfigurationTarget.Global);
		// An extension test run's workbench answers the dialog with Cancel: what was asked is in the log.
		await vscode.commands.executeCommand('piCondense.flushNow');
		const asked = logText(api.logUri.fsPath).split('\n').filter((text) => text.includes('asked before now:')).at(-1) ?? '';
		assert.match(asked, /Cache warm for \d more minutes \(until [^)]+\): pruning now re-writes ~[\d.]+k tokens \(~\$\d+\.\d+\); once it expires, pruning costs no extra cache write\./);
	});

	it('expired: no extra cache write, in the tooltip and the confirmation', async () => {
		await session('expired', 10 * MINUTE);
		await waitUntil(() => tooltip().includes('cache expired: pruning now costs no extra cache write'), `the expired line (tooltip: ${tooltip()})`);
		await settings().update('confirmPrune', true, vscode.ConfigurationTarget.Global);
		await vscode.commands.executeCommand('piCondense.flushNow');
		const asked = logText(api.logUri.fsPath).split('\n').filter((text) => text.includes('asked before now:')).at(-1) ?? '';
		assert.match(asked, /Cache expired: pruning now costs no extra cache write\./);
	});
});

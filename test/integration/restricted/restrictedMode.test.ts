/**
 * Pi Condense in a workspace VS Code has not trusted (run by `run-integration.mjs --restricted`):
 * the read-only views, hovers and recovered outputs work; nothing is summarized or written (now,
 * compact, settings, Undo Last Prune, Remove the Key Set up by Pi Condense) and each refusal says why,
 * before any question; the workspace's .pi/settings.json, which sends
 * sessions to another folder, is ignored, and Show Where Sessions Are Searched says so; the Pi on the
 * PATH is not asked for its pi-ai.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { FlushOutcome } from '../../../src/node/flush/flushOutcome';
import { removeStoredKey } from '../../../src/node/llm/storedApiKey';
import { activeApi, fixtures, waitUntil } from '../helpers';

const REFUSED = /^This workspace is in restricted mode, so Pi Condense does not/;

describe('Pi Condense in restricted mode', function () {
	this.timeout(60_000);

	before(async () => {
		assert.equal(vscode.workspace.isTrusted, false, 'the harness opened the workspace untrusted');
		const api = await activeApi();
		await waitUntil(() => api.controller.knowsSession(fixtures().basic.path), 'the basic session listed');
	});

	it('shows the sessions, their pruned calls, hovers and recovered outputs', async () => {
		const api = await activeApi();
		const { basic } = fixtures();
		await vscode.commands.executeCommand('piCondense.selectSession', basic.path);
		await waitUntil(async () => api.controller.selected === basic.path && await api.prunedTree.findRef('t3') !== undefined, 'the basic session shown');
		const uri = await vscode.commands.executeCommand<string>('piCondense.recoverOutput', { sessionPath: basic.path, ref: 't3' });
		assert.match((await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText(), /^## toolRef: t3\nTool: read/);
		const document = await vscode.workspace.openTextDocument(vscode.Uri.file(basic.path));
		const position = document.positionAt(document.getText().indexOf('`t3`') + 1);
		const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, position);
		assert.ok(hovers.some((hover) => hover.contents.some((part) => typeof part !== 'string' && 'value' in part && part.value.includes('**t3**'))));
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('summarizes and compacts nothing, and writes nothing, saying why', async () => {
		const { basic } = fixtures();
		const before = readFileSync(basic.path, 'utf8');
		for (const command of ['piCondense.flushNow', 'piCondense.compact']) {
			const outcome = await vscode.commands.executeCommand<FlushOutcome>(command);
			assert.equal(outcome.kind, 'refused', command);
			assert.match(outcome.message, REFUSED);
			assert.match(outcome.message, /Trust the workspace/);
		}
		assert.equal(readFileSync(basic.path, 'utf8'), before, 'the session file is untouched');
	});

	it('undoes no prune, even one it remembers whose bytes still end the file, and says why without asking', async () => {
		const api = await activeApi();
		const { basic } = fixtures();
		const before = readFileSync(basic.path);
		// The file's last line taken for a write of ours: everything an undo checks matches, but the workspace is not trusted.
		const lastLine = before.subarray(before.lastIndexOf(0x0a, before.length - 2) + 1);
		const stat = statSync(basic.path);
		api.flush.undo.remember(basic.path, {
			start: before.length - lastLine.length, length: lastLine.length, sha256: createHash('sha256').update(lastLine).digest('hex'),
			ino: stat.ino, dev: stat.dev, mtimeMs: stat.mtimeMs,
		}, 1, 'now');
		// From the palette (not the toast): a refusal comes before the question (which VS Code refuses in test runs: it would read as "no").
		const outcome = await vscode.commands.executeCommand<{ kind: string; code?: string; reason?: string }>('piCondense.undoLastPrune', basic.path);
		assert.equal(outcome?.kind, 'refused');
		assert.equal(outcome.code, 'restricted');
		assert.match(outcome.reason ?? '', /^This workspace is in restricted mode, so Pi Condense does not undo/);
		assert.ok(readFileSync(basic.path).equals(before), 'the session file is untouched');
	});

	it('uses the bundled pi-ai, never the installed Pi\'s (on the PATH here), and says why', async () => {
		assert.ok(process.env['PI_CONDENSE_TEST_INSTALLED_PI'], 'the harness put a Pi 1.6.0 on the PATH');
		const why = 'the bundled @earendil-works/pi-ai 1.6.0 (the workspace is not trusted, so the installed Pi\'s pi-ai is not loaded)';
		assert.ok((await vscode.commands.executeCommand<string>('piCondense.status')).includes(`\nsummarizer models and credentials: ${why}\n`));
		// A price look-up (the preview's cache panel) loads it in the pi-ai worker, in this extension host's Node.
		const api = await activeApi();
		const facts = await api.sessionFeed.modelPricing('anthropic', 'claude-sonnet-5');
		assert.equal(facts?.contextWindow !== undefined && facts.contextWindow > 0, true, 'today\'s catalog answered');
		assert.ok((await vscode.commands.executeCommand<string>('piCondense.status')).includes(`\nsummarizer models and credentials: ${why}\n`), 'the one loaded is the bundled one');
	});

	it('runs no login shell to find Pi, and says why Pi is not found and what to do', async () => {
		const api = await activeApi();
		const missing = 'your login shell\'s PATH was not read (the workspace is not trusted, and Pi Condense runs no process in restricted mode)';
		const status = await vscode.commands.executeCommand<string>('piCondense.status');
		assert.match(status, /\nPi: not found\. No pi command on VS Code's PATH \([^)]*\), /);
		assert.ok(status.includes(missing) && status.includes('Install Pi (npm install -g @earendil-works/pi-coding-agent), or add the folder that holds pi to PATH'), status);
		const tooltip = api.statusBar.item.tooltip;
		const text = (typeof tooltip === 'string' ? tooltip : tooltip?.value ?? '').replace(/\\/g, '');
		assert.ok(text.includes('Pi not found: No pi command on VS Code\'s PATH') && text.includes(missing), text);
	});

	it('does not change Pi\'s settings.json', async () => {
		const api = await activeApi();
		const settingsFile = join(fixtures().agentDir, 'settings.json');
		const before = readFileSync(settingsFile, 'utf8');
		await vscode.commands.executeCommand('piCondense.disable');
		await vscode.commands.executeCommand('piCondense.setMinBatchChars', '123');
		await assert.rejects(api.controller.updatePruneSettings((raw) => ({ ...raw, enabled: false })), { message: REFUSED });
		assert.equal(readFileSync(settingsFile, 'utf8'), before);
	});

	it('ignores the project\'s .pi/settings.json that sends sessions elsewhere, and says so', async () => {
		const api = await activeApi();
		const { redirectedSessionsDir, workspace } = fixtures();
		assert.ok(redirectedSessionsDir);
		assert.ok(!api.controller.sessionPaths().some((path) => path.startsWith(redirectedSessionsDir)), 'no session of the redirected folder is listed');
		assert.ok(!api.controller.discovery.searched.some((folder) => folder.root.path === redirectedSessionsDir));
		const report = await vscode.commands.executeCommand<string>('piCondense.showSearchedFolders');
		assert.ok(report.includes(`Ignored sessionDir ${JSON.stringify(redirectedSessionsDir)} in ${join(workspace, '.pi', 'settings.json')}: this workspace is in restricted mode`), report);
	});

	it('follows the user\'s pi-condense, not the one the untrusted workspace\'s .pi/settings.json brings, and says why', async () => {
		const api = await activeApi();
		const { basic } = fixtures();
		await vscode.commands.executeCommand('piCondense.selectSession', basic.path);
		await waitUntil(() => api.controller.selected === basic.path && api.controller.releaseResolution.kind === 'followed', 'the release resolved');
		const resolution = api.controller.releaseResolution;
		assert.equal(resolution.kind === 'followed' ? resolution.release : undefined, '2.0.0');
		assert.deepEqual(resolution.warnings.map((warning) => warning.kind), ['workspace-restricted']);
	});

	it('does not start Pi\'s installer, and says why', async () => {
		const terminals = vscode.window.terminals.length;
		const text = await vscode.commands.executeCommand<string>('piCondense.installPiCondense');
		assert.match(text, /^This workspace is in restricted mode, so Pi Condense does not start Pi's installer/);
		assert.match(text, /Trust the workspace/);
		assert.equal(vscode.window.terminals.length, terminals, 'no terminal was opened');
	});

	it('counts pruning into the session index (its own cache) without writing any session file', async () => {
		const basic = fixtures().basic.path;
		const before = readFileSync(basic);
		const text = await vscode.commands.executeCommand<string>('piCondense.countPruning');
		assert.match(text, /^(Pi Condense counted the pruning of \d+ sessions?\.|The pruning of every pruned session is counted already\.)$/);
		assert.ok(readFileSync(basic).equals(before), 'the session file is untouched');
	});

	it('does not remove a key from Pi\'s auth.json, even one Pi Condense set up, and says why', async () => {
		const api = await activeApi();
		const authPath = join(fixtures().agentDir, 'auth.json');
		// As if set up in a trusted window (the node layer does not ask): here, only its removal is asked for.
		const { record } = await api.flush.keys.store(fixtures().agentDir, 'openai', 'sk-restricted-test');
		try {
			const before = readFileSync(authPath, 'utf8');
			const text = await vscode.commands.executeCommand<string>('piCondense.removeSetUpKey', 'openai', 'confirmed');
			assert.match(text, /^This workspace is in restricted mode, so Pi Condense does not store API keys in Pi's auth\.json, nor remove them/);
			assert.equal(readFileSync(authPath, 'utf8'), before);
		} finally {
			await removeStoredKey(record);
			await api.flush.keys.forget(record);
		}
	});
});

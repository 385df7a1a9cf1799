/**
 * Rename Session… in real VS Code: the name is written as Pi's /name writes it (a session_info entry at
 * the end of the file), the list names the session by it at once, and Undo takes the file back byte for
 * byte (and the list its old name). An empty name names the session by its first message again.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/host/extensionApi';
import { SessionBuilder } from '../support/sessionBuilder';
import { activeApi, fixtures, waitUntil } from './helpers';

describe('Rename Session…', function () {
	this.timeout(60_000);
	let api: ExtensionApi;
	const folder = (): string => join(fixtures().sessionsDir, '--rename-test--');
	const path = (): string => join(folder(), `2026-12-06T00-00-00-000Z_rename-${process.pid}.jsonl`);

	before(async () => {
		api = await activeApi();
		const builder = new SessionBuilder({ id: `rename-${Date.now()}`, cwd: fixtures().workspace, timestamp: new Date(Date.now() - 600_000).toISOString() });
		builder.user('Tidy up the build scripts');
		builder.assistant([{ type: 'text', text: 'Done.' }]);
		mkdirSync(folder(), { recursive: true });
		writeFileSync(path(), builder.text());
		const old = new Date(Date.now() - 60_000);
		utimesSync(path(), old, old);
		await waitUntil(() => api.controller.titleOf(path()) === 'Tidy up the build scripts', 'the session listed by its first message');
	});

	after(async () => {
		rmSync(folder(), { recursive: true, force: true });
		await waitUntil(() => !api.controller.knowsSession(path()), 'the test session unlisted');
	});

	it('writes the name as Pi does, names the row by it, and Undo takes the file back byte for byte', async () => {
		const before = readFileSync(path());
		const outcome = await vscode.commands.executeCommand<{ kind: string }>('piCondense.renameSession', path(), 'Build scripts, tidied');
		assert.deepEqual(outcome, { kind: 'renamed', name: 'Build scripts, tidied' });
		const appended = readFileSync(path()).subarray(before.length).toString('utf8');
		const entry = JSON.parse(appended) as Record<string, unknown>;
		assert.deepEqual(Object.keys(entry), ['type', 'id', 'parentId', 'timestamp', 'name']);
		assert.equal(entry['type'], 'session_info');
		assert.ok(appended.endsWith('}\n') && appended.split('\n').length === 2, 'one complete line');
		await waitUntil(() => api.controller.titleOf(path()) === 'Build scripts, tidied', 'the row named by it');

		await vscode.commands.executeCommand('piCondense.undoLastPrune', path(), 'toast');
		assert.ok(readFileSync(path()).equals(before), 'the file as it was, byte for byte');
		await waitUntil(() => api.controller.titleOf(path()) === 'Tidy up the build scripts', 'the row named by its first message again');
	});

	it('leaves the name as it is when it did not change', async () => {
		const before = readFileSync(path());
		assert.deepEqual(await vscode.commands.executeCommand('piCondense.renameSession', path(), '  '), { kind: 'unchanged' });
		assert.ok(readFileSync(path()).equals(before));
	});
});

/**
 * Problems are reported with the file and line: an invalid settings.json (and nothing is written to
 * it while it is invalid), and a session with an unreadable line.
 */
import assert from 'node:assert/strict';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { SessionBuilder } from '../support/sessionBuilder';
import { activeApi, fixtures, waitUntil } from './helpers';

describe('problem reports', () => {
	it('names settings.json and the line of its JSON error, and refuses to write to it', async () => {
		const api = await activeApi();
		const path = join(fixtures().agentDir, 'settings.json');
		const valid = readFileSync(path, 'utf8');
		const broken = valid.replace('"theme": "dark",', '"theme": "dark"');
		try {
			writeFileSync(path, broken);
			await waitUntil(() => api.controller.settings?.fileState.kind === 'invalid-json', 'the invalid file noticed');
			await waitUntil(() => api.problems.shown.some((message) => message.startsWith(`${path} is not valid JSON at line 3`)), `a warning naming ${path}, line 3 (shown: ${api.problems.shown.join(' | ')})`);
			assert.equal(await vscode.commands.executeCommand('piCondense.disable'), undefined, 'the command reports the refusal instead');
			assert.equal(readFileSync(path, 'utf8'), broken, 'the invalid file is left as it is');
		} finally {
			writeFileSync(path, valid);
		}
		await waitUntil(() => api.controller.settings?.fileState.kind === 'ok', 'the repaired file read again');
	});

	it('names the session file and its unreadable line when the session is selected', async () => {
		const api = await activeApi();
		const { basic, workspace } = fixtures();
		const path = join(dirname(basic.path), '2026-12-02T10-00-00-000Z_broken-session.jsonl');
		const builder = new SessionBuilder({ id: 'broken-session', cwd: workspace });
		builder.user('A session with a damaged line');
		builder.rawLine('{"type":"message","id":"x",');
		writeFileSync(path, builder.text());
		try {
			await waitUntil(() => api.controller.knowsSession(path), 'the session listed');
			await vscode.commands.executeCommand('piCondense.selectSession', path);
			await waitUntil(() => api.problems.shown.some((message) => message.startsWith(`${path}:3: not valid JSON`)), 'a warning naming the file and line 3');
			await waitUntil(() => api.prunedTree.rootNodes.some((node) => node.data.label === 'Problems'), 'a Problems group in Pruned Calls');
		} finally {
			unlinkSync(path);
			await vscode.commands.executeCommand('piCondense.selectSession', basic.path);
		}
		await waitUntil(() => api.controller.selected === basic.path && !api.controller.knowsSession(path), 'back to the basic session');
	});
});

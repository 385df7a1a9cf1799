/**
 * The session index in restricted mode: it reads the sessions as the list does (read-only) and keeps
 * them in the user's index; the project's .vscode/settings.json, which names an index file of its
 * own and turns the index off, is ignored (machine settings), and the folder the project's
 * .pi/settings.json names is not indexed.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activeApi, fixtures, waitUntil } from '../helpers';

describe('the session index in restricted mode', function () {
	this.timeout(60_000);

	it('indexes the listed sessions in the user\'s index, whatever the project says', async () => {
		assert.equal(vscode.workspace.isTrusted, false);
		const api = await activeApi();
		await waitUntil(() => api.controller.indexState?.kind === 'ready', 'the index built', 60_000);
		assert.ok(existsSync(join(process.env.XDG_CACHE_HOME ?? '', 'pi-condense', 'session-index.sqlite')), 'the user\'s index');
		assert.ok(!existsSync(join(fixtures().workspace, '.pi', 'project-index.sqlite')), 'no index where the project said');
		const hits = await api.controller.searchHistory('the', { sessions: 100 }) ?? [];
		assert.ok(hits.some((hit) => hit.path === fixtures().basic.path), 'the listed sessions are searched');
		const redirected = fixtures().redirectedSessionsDir ?? '';
		assert.ok(redirected !== '' && !hits.some((hit) => hit.path.startsWith(redirected)), 'the folder the project named is not indexed');
	});
});

describe('Rename Session… in restricted mode', () => {
	it('is refused, saying why, and writes nothing', async () => {
		const api = await activeApi();
		const path = fixtures().basic.path;
		const before = readFileSync(path);
		const outcome = await vscode.commands.executeCommand<{ kind: string; reason?: string }>('piCondense.renameSession', path, 'A new name');
		assert.equal(outcome?.kind, 'refused');
		assert.match(outcome?.reason ?? '', /^This workspace is in restricted mode, so Pi Condense does not rename sessions/);
		assert.ok(readFileSync(path).equals(before));
		assert.notEqual(api.controller.titleOf(path), 'A new name');
	});
});

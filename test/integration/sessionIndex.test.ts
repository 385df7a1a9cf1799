/**
 * The session index in a real VS Code (docs/session-index.md): the sessions listed from it, a line
 * appended to a session reflected in it and found by Search Pi Sessions… (the real quick pick,
 * accepted as a user would) and by the sessions filter, Clear the Session Index, and its faults: a
 * damaged file named in `piCondense.sessionIndex.path` is moved aside and built again, a place that
 * cannot be written leaves the list as without an index; each said once.
 */
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/host/extensionApi';
import { SessionBuilder } from '../support/sessionBuilder';
import { activeApi, fixtures, logText, waitUntil } from './helpers';

const SETTING = 'sessionIndex.path';

function indexState(api: ExtensionApi): string | undefined {
	return api.controller.indexState?.kind;
}

async function setIndexPath(value: string | undefined): Promise<void> {
	await vscode.workspace.getConfiguration('piCondense').update(SETTING, value, vscode.ConfigurationTarget.Global);
}

/** Refresh Sessions: the store starts again, with the index the settings name now. */
async function restart(api: ExtensionApi, until: (state: string | undefined) => boolean, what: string): Promise<void> {
	await vscode.commands.executeCommand('piCondense.refresh');
	await waitUntil(() => until(indexState(api)), what, 60_000);
}

describe('the session index', function () {
	this.timeout(120_000);
	let api: ExtensionApi;
	let planted = '';
	const word = `zebracorn${Date.now().toString(36)}`;

	before(async () => {
		api = await activeApi();
		await waitUntil(() => indexState(api) === 'ready', 'the index built', 60_000);
		const builder = new SessionBuilder({ id: `index-${Date.now()}`, cwd: fixtures().workspace, timestamp: new Date(Date.now() - 120_000).toISOString() });
		builder.user('a session for the index test');
		builder.assistant([{ type: 'text', text: 'Noted.' }]);
		planted = join(fixtures().sessionsDir, readdirSync(fixtures().sessionsDir).find((name) => !name.endsWith('.jsonl')) ?? '', 'index-test.jsonl');
		writeFileSync(planted, builder.text());
		await waitUntil(() => api.controller.row(planted)?.summary !== undefined, 'the new session listed with its summary');
	});

	after(async () => {
		await setIndexPath(undefined);
		// The other suites expect the fixture sessions alone.
		rmSync(planted, { force: true });
		await waitUntil(() => !api.controller.knowsSession(planted), 'the test session gone from the list');
	});

	it('is a private file in the cache folder, and lists every session with its summary', () => {
		const cache = process.env.XDG_CACHE_HOME;
		assert.ok(cache, 'the harness sets XDG_CACHE_HOME');
		const file = join(cache, 'pi-condense', 'session-index.sqlite');
		assert.ok(existsSync(file), `${file} exists`);
		assert.equal(statSync(file).mode & 0o777, 0o600);
		assert.equal(statSync(join(cache, 'pi-condense')).mode & 0o777, 0o700);
		for (const session of [fixtures().basic, fixtures().realV3]) {
			assert.ok(api.controller.row(session.path)?.summary, `${session.path} has its summary`);
		}
	});

	it('reflects an appended line: Search Pi Sessions… finds its words, and accepting opens the session at that message', async () => {
		const line = JSON.stringify({ type: 'message', id: 'planted1', parentId: null, timestamp: new Date().toISOString(), message: { role: 'user', content: [{ type: 'text', text: `where is the ${word} now` }], timestamp: Date.now() } });
		appendFileSync(planted, `${line}\n`);
		await waitUntil(async () => ((await api.controller.searchHistory(word, {})) ?? []).some((hit) => hit.path === planted), 'the appended word found by the index');

		const picked = vscode.commands.executeCommand<{ path: string; entryId: string | undefined; line: number } | undefined>('piCondense.searchSessions', word);
		await waitUntil(() => api.sessionSearch.lastShown.some((item) => item.path === planted && item.line !== undefined), 'the pick showing the message found');
		// No session is named with the word: the messages found are all it shows, under their separator.
		assert.deepEqual(api.sessionSearch.lastShown.map((item) => item.detail === undefined ? item.label : item.path), ['found in messages', planted]);
		assert.match(api.sessionSearch.lastShown[1]?.detail ?? '', new RegExp(`You: .*${word}`));
		// The items reach the window a moment after the extension sets them: Enter before that keeps the pick open.
		let settled = false;
		void Promise.resolve(picked).finally(() => {
			settled = true;
		});
		await waitUntil(async () => {
			await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
			await new Promise((done) => setTimeout(done, 100));
			return settled;
		}, 'the pick accepted');
		const chosen = await picked;
		assert.deepEqual(chosen && { path: chosen.path, entryId: chosen.entryId, line: chosen.line }, { path: planted, entryId: 'planted1', line: 4 });
		assert.equal(api.controller.selected, planted);
	});

	it('makes the sessions filter a search of every message, with the words found on the row', async () => {
		await vscode.commands.executeCommand('piCondense.filterSessions', word);
		try {
			await waitUntil(() => api.sessionsTree.shownProjects().some((project) => project.sessions.some((session) => session.path === planted)), 'the filter showing the session');
			const row = api.sessionsTree.shownProjects().flatMap((project) => project.sessions).find((session) => session.path === planted);
			assert.match(row?.description ?? '', new RegExp(word));
			assert.ok(!api.sessionsTree.shownProjects().flatMap((project) => project.sessions).some((session) => session.path === fixtures().basic.path), 'a session without the words is filtered out');
		} finally {
			await vscode.commands.executeCommand('piCondense.clearSessionFilter');
		}
	});

	it('is forgotten by Clear the Session Index once confirmed, and built again by the next start', async () => {
		// Unconfirmed (the modal is refused in extension test runs, as Escape answers it): nothing is cleared.
		assert.equal(await vscode.commands.executeCommand('piCondense.clearSessionIndex'), undefined);
		assert.equal(indexState(api), 'ready');
		assert.ok(((await api.controller.searchHistory(word, {})) ?? []).some((hit) => hit.path === planted), 'the index still finds the word');
		assert.equal(await vscode.commands.executeCommand('piCondense.clearSessionIndex', 'confirmed'), true);
		assert.equal(indexState(api), 'cleared');
		assert.equal(await api.controller.searchHistory(word, {}), undefined);
		await restart(api, (state) => state === 'ready', 'the index built again');
		assert.ok(((await api.controller.searchHistory(word, {})) ?? []).some((hit) => hit.path === planted));
	});

	it('moves a damaged file aside and builds it again, said once', async () => {
		const folder = mkdtempSync(join(tmpdir(), 'pi-condense-index-'));
		const damaged = join(folder, 'chosen.sqlite');
		writeFileSync(damaged, 'this is not a database, only text long enough to look like one '.repeat(200));
		await setIndexPath(damaged);
		await restart(api, (state) => state === 'ready', 'the index built in the chosen place');
		assert.ok(readdirSync(folder).some((name) => name !== 'chosen.sqlite' && name.startsWith('chosen.sqlite')), `the damaged file moved aside in ${folder}: ${readdirSync(folder).join(', ')}`);
		assert.match(logText(api.logUri.fsPath), /could not be used \(damaged\): it was moved to/);
		assert.ok(((await api.controller.searchHistory(word, {})) ?? []).some((hit) => hit.path === planted));
	});

	it('leaves the list as without an index when its place cannot be written, said once', async () => {
		const folder = mkdtempSync(join(tmpdir(), 'pi-condense-index-'));
		const notAFolder = join(folder, 'a-file');
		writeFileSync(notAFolder, '');
		await setIndexPath(join(notAFolder, 'index.sqlite'));
		await restart(api, (state) => state === 'off', 'the index off');
		await waitUntil(() => api.controller.row(planted)?.summary !== undefined, 'the session listed from its file');
		await waitUntil(() => /The session index is off in this window/.test(logText(api.logUri.fsPath)), 'the log saying the index is off');
		await setIndexPath(undefined);
		await restart(api, (state) => state === 'ready', 'the index back');
	});
});

/**
 * A steady sidebar in real VS Code: after Refresh Sessions the projects keep their order when one is
 * expanded (the summaries read then bring Pi's own activity times, which moved projects under the
 * cursor before); two projects both called "project" are named by the folder above them, and two
 * sessions with the same title by their start; a click on a session (in the real tree) opens its
 * context preview (without taking the keyboard from the tree: `preserveFocus`).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/host/extensionApi';
import { SessionBuilder } from '../support/sessionBuilder';
import { ui } from '../support/workbenchUi';
import { activeApi, fixtures, waitUntil } from './helpers';

describe('a steady sidebar', function () {
	this.timeout(120_000);
	let api: ExtensionApi;
	let folders: string;
	const created: string[] = [];
	const project = (name: string): string => join(folders, name, 'project');

	/** A session of `cwd` whose messages are at `messagesAt` and whose file was last touched `fileAgoMs` ago. */
	function session(cwd: string, id: string, prompt: string, messagesAt: number, fileAgoMs: number): string {
		const builder = new SessionBuilder({ id, cwd, timestamp: new Date(messagesAt).toISOString() });
		builder.user(prompt, { timestamp: new Date(messagesAt).toISOString() });
		builder.assistant([{ type: 'text', text: 'Done.' }]);
		const text = builder.text().replace(/"timestamp":(\d{13})/g, `"timestamp":${messagesAt}`);
		const path = join(fixtures().sessionsDir, `--steady-${id}--`, `2026-01-01T00-00-00-000Z_${id}.jsonl`);
		created.push(join(fixtures().sessionsDir, `--steady-${id}--`));
		mkdirSync(join(fixtures().sessionsDir, `--steady-${id}--`), { recursive: true });
		writeFileSync(path, text);
		const at = new Date(Date.now() - fileAgoMs);
		utimesSync(path, at, at);
		return path;
	}

	before(async () => {
		api = await activeApi();
		folders = mkdtempSync(join(tmpdir(), 'pi-condense-steady-'));
		await vscode.commands.executeCommand('notifications.clearAll');
	});

	after(async () => {
		api.contextPreview.webviewPanel?.dispose();
		for (const dir of created) {
			rmSync(dir, { recursive: true, force: true });
		}
		rmSync(folders, { recursive: true, force: true });
		await waitUntil(() => api.controller.sessionPaths().every((path) => !path.includes('--steady-')), 'the test sessions unlisted');
		await vscode.commands.executeCommand('piCondense.selectSession', fixtures().basic.path);
	});

	it('keeps the projects\' order when one is expanded, and names same-named projects and same-titled sessions apart', async () => {
		const now = Date.now();
		// "one": the file touched more recently, its messages long ago. "two": the other way round.
		const one = session(project('one'), 'steady-one', 'Same title', Date.parse('2026-01-01T09:00:00Z'), 10 * 60_000);
		const oneAgain = session(project('one'), 'steady-one-b', 'Same title', Date.parse('2026-01-02T18:30:00Z'), 12 * 60_000);
		const two = session(project('two'), 'steady-two', 'Other work', now - 60_000, 20 * 60_000);
		await waitUntil(() => [one, oneAgain, two].every((path) => api.controller.knowsSession(path)), 'the sessions listed');
		const cwds = (): string[] => api.sessionsTree.shownProjects().map((item) => item.cwd).filter((cwd) => cwd.startsWith(folders));
		// With the session index, Refresh lists every session with its summary at once: ordered by Pi's own activity from the start.
		await api.controller.idle();
		await vscode.commands.executeCommand('piCondense.refresh');
		await waitUntil(() => [one, oneAgain, two].every((path) => api.controller.row(path)?.summary !== undefined), 'listed again, with their summaries from the index');
		assert.deepEqual(cwds(), [project('two'), project('one')]);
		// Without it, Refresh lists anew (no summaries read yet) and orders by the activity known then: the files' times.
		await vscode.workspace.getConfiguration('piCondense').update('sessionIndex.enabled', false, vscode.ConfigurationTarget.Global);
		await vscode.commands.executeCommand('piCondense.refresh');
		await waitUntil(() => [one, oneAgain, two].every((path) => api.controller.knowsSession(path)), 'listed again');
		const before = cwds();
		assert.deepEqual(before, [project('one'), project('two')]);
		assert.deepEqual(api.sessionsTree.shownProjects().filter((item) => item.cwd.startsWith(folders)).map((item) => item.label), ['one/project', 'two/project']);

		for (const path of [two, one]) {
			await api.sessionsTree.revealSession(path);
		}
		const row = (path: string) => api.controller.row(path);
		await waitUntil(() => [one, oneAgain, two].every((path) => row(path)?.summary !== undefined), 'their summaries read (the projects expanded)', 30_000);
		await api.controller.idle();
		// Not vacuous: by the activity the summaries brought, "two" is now the newer project.
		assert.ok((row(two)?.summary?.modified ?? 0) > (row(one)?.summary?.modified ?? 0));
		assert.deepEqual(cwds(), before, 'the projects did not move');
		const labels = api.sessionsTree.shownProjects().find((item) => item.cwd === project('one'))?.sessions.map((item) => item.label) ?? [];
		assert.equal(labels.length, 2);
		assert.ok(labels.every((label) => label.startsWith('Same title · ')) && labels[0] !== labels[1], labels.join(' | '));
	});

	after(async () => {
		if (vscode.workspace.getConfiguration('piCondense').get('sessionIndex.enabled') === false) {
			await vscode.workspace.getConfiguration('piCondense').update('sessionIndex.enabled', undefined, vscode.ConfigurationTarget.Global);
			await vscode.commands.executeCommand('piCondense.refresh');
		}
	});

	it('opens a session\'s preview when its row is clicked', async () => {
		const path = api.controller.sessionPaths().find((candidate) => candidate.includes('steady-two'));
		assert.ok(path);
		api.contextPreview.webviewPanel?.dispose();
		await api.sessionsTree.revealSession(path);
		await ui({ action: 'click', selector: '.part.sidebar .monaco-list-row:has-text("Other work")' });
		await waitUntil(() => api.controller.selected === path, 'the session selected');
		await waitUntil(() => api.contextPreview.webviewPanel?.visible === true && api.contextPreview.webviewPanel.title === 'Context: Other work', 'its preview open on it', 30_000);
	});
});

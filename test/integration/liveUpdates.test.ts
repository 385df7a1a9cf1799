/**
 * The views follow the files: a session written from outside appears in Pi Sessions, lines appended
 * to it reach the Pruned Calls view (a pending batch), the status bar (`prune: 1 pending`) and the
 * session's row (message count), without the user doing anything; deleting it removes it.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { pendingStatusText } from '../../src/engine/condense';
import { SessionBuilder } from '../support/sessionBuilder';
import { activeApi, fixtures, waitUntil } from './helpers';

describe('live updates from the session files', () => {
	it('shows a new session, then follows lines appended to it', async () => {
		const api = await activeApi();
		const { basic, workspace } = fixtures();
		const folder = dirname(basic.path);
		mkdirSync(folder, { recursive: true });
		const path = join(folder, '2026-12-01T10-00-00-000Z_live-session.jsonl');
		const builder = new SessionBuilder({ id: 'live-session', cwd: workspace, timestamp: new Date().toISOString() });
		builder.user('Live: count the files in the project');
		const written = builder.text();
		writeFileSync(path, written);
		assert.ok(readdirSync(folder).includes('2026-12-01T10-00-00-000Z_live-session.jsonl'));

		const row = () => api.sessionsTree.shownProjects().flatMap((project) => project.sessions).find((session) => session.path === path);
		await waitUntil(() => row() !== undefined, 'the new session listed');
		await waitUntil(() => row()?.label === 'Live: count the files in the project', 'its first message as its label');
		assert.match(row()!.description, /· 1 msg\b/);

		await vscode.commands.executeCommand('piCondense.selectSession', path);
		await waitUntil(() => api.controller.selected === path && api.controller.insight() !== undefined, 'the new session selected');
		assert.equal(api.prunedTree.rootNodes.length, 0);

		const callId = builder.assistant([{ type: 'toolCall', id: 'call_live_1', name: 'bash', arguments: { command: 'ls -la' } }]);
		const output = 'total 3\napp.js\nutil.js\nREADME.md';
		builder.toolResult('call_live_1', 'bash', output);
		assert.ok(callId);
		appendFileSync(path, builder.text().slice(written.length));

		await waitUntil(() => api.prunedTree.rootNodes.some((node) => node.data.label === 'Pending'), 'a Pending group in Pruned Calls');
		const pending = api.prunedTree.rootNodes.find((node) => node.data.label === 'Pending')!;
		const batches = await api.prunedTree.getChildren(pending);
		assert.equal(batches.length, 1);
		const calls = batches[0] ? await api.prunedTree.getChildren(batches[0]) : [];
		assert.equal(calls[0]?.data.label, `bash(command="ls -la") · ${output.length} chars`);
		await waitUntil(() => api.statusBar.item.text === pendingStatusText(1), `status ${pendingStatusText(1)} (is ${api.statusBar.item.text})`);
		await waitUntil(() => /· 3 msgs\b/.test(row()?.description ?? ''), 'the row counts 3 messages');

		unlinkSync(path);
		await waitUntil(() => row() === undefined, 'the deleted session gone from the list');
		// The tree keeps one node per listed session, not one for every session it ever showed.
		assert.equal(api.sessionsTree.nodeCounts.sessions, api.controller.sessionPaths().length, 'the removed session\'s node is forgotten');
		await vscode.commands.executeCommand('piCondense.selectSession', basic.path);
		await waitUntil(() => api.controller.selected === basic.path && api.controller.insight() !== undefined, 'back to the basic session');
	});
});

/**
 * Session rows the list does not show: names and first messages are read when a project is
 * expanded in the list (and for a new file, or a rewritten one whose name was known), so a session
 * rewritten while the Pi Condense side bar is closed (Pi rewrites a file when it migrates it) may be
 * known only by its file name for a while. A filter must still find it by its first message, and
 * once selected it must be named by it (status, notices, the views).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { SessionBuilder } from '../support/sessionBuilder';
import { activeApi, fixtures, waitUntil } from './helpers';

describe('session rows the list does not show', function () {
	this.timeout(60_000);
	const folder = (): string => join(fixtures().agentDir, 'sessions', '--tmp-unshown-project--');
	const pathOf = (name: string): string => join(folder(), `2026-12-05T10-00-00-000Z_${name}.jsonl`);

	/** A session listed with its title, then rewritten with another first message (and header). */
	async function rewrittenSession(name: string, firstMessage: string): Promise<string> {
		const api = await activeApi();
		const path = pathOf(name);
		const write = (id: string, message: string): void => {
			const builder = new SessionBuilder({ id, cwd: '/tmp/unshown-project', timestamp: new Date().toISOString() });
			builder.user(message);
			builder.assistant([{ type: 'text', text: 'On it.' }]);
			writeFileSync(path, builder.text());
		};
		mkdirSync(folder(), { recursive: true });
		write(`${name}-1`, 'A first version of this session');
		await waitUntil(() => api.controller.titleOf(path) === 'A first version of this session', 'the new session listed with its title');
		write(`${name}-2`, firstMessage);
		// Known by its file name until its new summary is read (at once now: a row whose summary was known is read again, so the session index follows the rewrite).
		await waitUntil(() => [`2026-12-05T10-00-00-000Z_${name}`, firstMessage].includes(api.controller.titleOf(path)), 'the rewritten session no longer named by its first version');
		return path;
	}

	before(async () => {
		await activeApi();
		// The side bar shows another container: nothing asks the Pi Sessions view for its rows.
		await vscode.commands.executeCommand('workbench.view.explorer');
	});

	after(async () => {
		const api = await activeApi();
		await vscode.commands.executeCommand('piCondense.clearSessionFilter');
		if (existsSync(folder())) {
			rmSync(folder(), { recursive: true });
		}
		await vscode.commands.executeCommand('workbench.view.extension.piCondense');
		await waitUntil(() => !api.controller.knowsSession(pathOf('filtered')) && !api.controller.knowsSession(pathOf('selected')), 'the test sessions unlisted');
		await vscode.commands.executeCommand('piCondense.selectSession', fixtures().basic.path);
		await waitUntil(() => api.controller.selected === fixtures().basic.path && api.controller.insight() !== undefined, 'the basic session selected again');
	});

	it('a filter finds a session by its first message', async () => {
		const api = await activeApi();
		const path = await rewrittenSession('filtered', 'Find the quietly renamed function');
		await vscode.commands.executeCommand('piCondense.filterSessions', 'QUIETLY renamed');
		const shown = (): string[] => api.sessionsTree.shownProjects().flatMap((project) => project.sessions.map((session) => session.path));
		await waitUntil(() => shown().length === 1 && shown()[0] === path, 'the filter matched its first message');
		await waitUntil(() => api.sessionsTree.view.message === 'Filtered by "QUIETLY renamed": 1 session.', 'the view says what the filter shows');
		await vscode.commands.executeCommand('piCondense.clearSessionFilter');
	});

	it('a selected session is named by its first message', async () => {
		const api = await activeApi();
		const path = await rewrittenSession('selected', 'Port the parser to the new API');
		await vscode.commands.executeCommand('piCondense.selectSession', path);
		await waitUntil(() => api.controller.titleOf(path) === 'Port the parser to the new API', 'its title read on selection');
		const status = await vscode.commands.executeCommand<string>('piCondense.status');
		assert.ok(status.endsWith('(session "Port the parser to the new API")'), status);
	});
});

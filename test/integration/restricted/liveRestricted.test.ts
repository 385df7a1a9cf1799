/**
 * Live sessions in a workspace VS Code has not trusted: a running Pi's session is still seen live (reading
 * its bridge starts nothing and writes nothing), but nothing acts on Pi: Connect and Disconnect are
 * refused, and "Summarize Pending Batches Now" on the live session puts nothing into Pi's editor.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startFakeLlmServer, type FakeLlmServer } from '../../support/fakeLlmServer';
import type { RealPi } from '../../support/realPi';
import { activeApi, fixtures, logText, waitUntil } from '../helpers';
import { removeLiveSessions, startLivePi } from '../liveHelpers';

const REFUSED = /This workspace is in restricted mode, so Pi Condense does not/;

describe('live sessions in restricted mode', function () {
	this.timeout(120_000);
	let server: FakeLlmServer;
	let pi: RealPi | undefined;
	let project: string | undefined;
	const temps: string[] = [];

	before(async () => {
		server = await startFakeLlmServer({ text: 'Done.' });
	});
	after(async () => {
		await pi?.stop();
		if (project !== undefined) {
			await removeLiveSessions(await activeApi(), project, new Set());
		}
		await server.close();
		for (const dir of temps) {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('refuses to connect or disconnect Pi, changing nothing', async () => {
		const settingsPath = join(fixtures().agentDir, 'settings.json');
		const before = readFileSync(settingsPath, 'utf8');
		for (const command of ['piCondense.connectPi', 'piCondense.disconnectPi']) {
			assert.match(await vscode.commands.executeCommand<string>(command, 'confirmed'), REFUSED, command);
		}
		assert.equal(readFileSync(settingsPath, 'utf8'), before);
		assert.ok(!existsSync(join(fixtures().agentDir, 'pi-condense-vscode-bridge')));
	});

	it('shows a running Pi\'s session live, but puts nothing into its editor', async () => {
		const api = await activeApi();
		// A project folder of its own: Pi would ask whether to trust the workspace's .pi folder.
		project = mkdtempSync(join(tmpdir(), 'pi-condense-live-project-'));
		temps.push(project);
		pi = await startLivePi(server, 'pruner-stand-in', temps, project);
		await pi.prompt('hello');
		const pid = pi.pid;
		await waitUntil(() => api.live.pis.some((live) => live.state.pid === pid), 'VS Code connected to the Pi\'s bridge', 60_000);
		const path = api.live.pis.find((live) => live.state.pid === pid)?.state.sessionFile ?? '';
		await waitUntil(() => api.controller.sessionPaths().includes(path), 'the session listed');
		const from = pi.records.length;
		await vscode.commands.executeCommand('piCondense.flushNow', path);
		await waitUntil(() => /does not put \/pruner commands into a running Pi's editor/.test(logText(api.logUri.fsPath)), 'the refusal logged');
		await new Promise((resolve) => setTimeout(resolve, 1000));
		assert.deepEqual(pi.records.slice(from).filter((record) => record.type === 'extension_ui_request'), []);
	});
});

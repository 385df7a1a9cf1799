/**
 * Today's pi-ai inside VS Code's extension host, on every VS Code the harness runs (1.139 on Node 24, 1.100 on
 * Node 20): the harness puts a real Pi 1.6.0 on VS Code's PATH (`PI_CONDENSE_TEST_INSTALLED_PI`), so in this
 * trusted workspace the pi-ai worker loads that Pi's own pi-ai (ESM, from its folder) and Show Status names it.
 * A session whose model only today's catalog has (anthropic/claude-sonnet-5), with models.json pointing the
 * built-in anthropic provider at a real server on 127.0.0.1, is summarized by that model: nothing offline.
 */
import assert from 'node:assert/strict';
import { readFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { FlushOutcome } from '../../src/node/flush/flushOutcome';
import { startFakeLlmServer, type FakeLlmServer } from '../support/fakeLlmServer';
import { SessionBuilder } from '../support/sessionBuilder';
import { activeApi, contextPruneOnDisk, fixtures, waitUntil } from './helpers';

const KEY = 'sk-ant-api03-integration-key-for-127-0-0-1';

describe('today\'s pi-ai in VS Code', function () {
	this.timeout(60_000);
	let server: FakeLlmServer;
	let original: Record<string, unknown>;
	const written: string[] = [];
	const agentFile = (name: string): string => join(fixtures().agentDir, name);

	before(async () => {
		const api = await activeApi();
		server = await startFakeLlmServer({ text: '- [[1:bash]] listed the project\n- [[2:read]] read the app' });
		writeFileSync(agentFile('models.json'), JSON.stringify({ providers: { anthropic: { baseUrl: server.url } } }, null, 2));
		writeFileSync(agentFile('auth.json'), JSON.stringify({ anthropic: { type: 'api_key', key: KEY } }, null, 2), { mode: 0o600 });
		written.push(agentFile('models.json'), agentFile('auth.json'));
		original = contextPruneOnDisk();
		await api.controller.updatePruneSettings((raw) => ({ ...raw, enabled: true, summarizerModel: 'default', minBatchChars: 50 }));
	});

	after(async () => {
		const api = await activeApi();
		await api.controller.updatePruneSettings(() => original);
		for (const path of written) {
			unlinkSync(path);
		}
		await server.close();
		await vscode.commands.executeCommand('piCondense.selectSession', fixtures().basic.path);
	});

	it('summarizes a session on anthropic/claude-sonnet-5 through the installed Pi 1.6.0\'s own pi-ai, and says which pi-ai in Show Status', async () => {
		const api = await activeApi();
		const { basic, workspace } = fixtures();
		const path = join(dirname(basic.path), '2026-12-03T11-00-00-000Z_todays-model.jsonl');
		const session = new SessionBuilder({ id: 'todays-model', cwd: workspace, timestamp: new Date().toISOString() });
		session.user('Look at the project with today\'s model');
		session.assistant([
			{ type: 'toolCall', id: 'tm-c1', name: 'bash', arguments: { command: 'ls -la' } },
			{ type: 'toolCall', id: 'tm-c2', name: 'read', arguments: { path: 'src/app.js' } },
		]);
		session.toolResult('tm-c1', 'bash', 'ls output '.repeat(40));
		session.toolResult('tm-c2', 'read', 'app source '.repeat(40));
		session.assistant([{ type: 'text', text: 'Done.' }]);
		session.entry({ type: 'model_change', provider: 'anthropic', modelId: 'claude-sonnet-5' });
		writeFileSync(path, session.text());
		written.push(path);
		const aMinuteAgo = new Date(Date.now() - 60_000);
		utimesSync(path, aMinuteAgo, aMinuteAgo);
		await waitUntil(() => api.controller.knowsSession(path), 'the session listed');
		await vscode.commands.executeCommand('piCondense.selectSession', path);
		await waitUntil(() => api.controller.insight()?.pending.length === 1, 'its pending batch read');

		const outcome = await vscode.commands.executeCommand<FlushOutcome>('piCondense.flushNow');
		assert.equal(outcome.kind, 'written', `${outcome.message} ${outcome.advice ?? ''}`);
		assert.ok(![...outcome.notices].some((notice) => /offline/.test(notice)), [...outcome.notices].join('\n'));
		const request = server.requests.at(-1);
		assert.equal(request?.path.split('?')[0], '/v1/messages');
		assert.equal(request?.body.model, 'claude-sonnet-5');
		assert.equal(request?.headers['x-api-key'], KEY);
		assert.ok(readFileSync(path, 'utf8').includes('listed the project'), 'the model\'s summary is in the session');

		const status = await vscode.commands.executeCommand<string>('piCondense.status');
		const installed = process.env['PI_CONDENSE_TEST_INSTALLED_PI'] ?? '';
		assert.ok(installed, 'the harness installed a Pi');
		assert.ok(status.includes(`summarizer models and credentials: @earendil-works/pi-ai 1.6.0 of the installed Pi 1.6.0 (${installed})`), status);
	});
});

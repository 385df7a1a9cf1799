/**
 * The session index's build is a visible job that can be cancelled and goes on later: with many
 * sessions to read, Refresh Sessions builds it (the state "building", with counts), Cancel (what the
 * notification's button does) stops it, what was read is kept, and the next start completes it: every
 * session then lists with its summary.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/host/extensionApi';
import { SessionBuilder } from '../support/sessionBuilder';
import { activeApi, fixtures, waitUntil } from './helpers';

const SESSIONS = 40;

describe('the session index\'s build', function () {
	this.timeout(180_000);
	let api: ExtensionApi;
	const folder = (): string => join(fixtures().sessionsDir, '--index-build--');
	const paths: string[] = [];

	before(async () => {
		api = await activeApi();
		await waitUntil(() => api.controller.indexState?.kind === 'ready', 'the index ready', 60_000);
		await vscode.commands.executeCommand('piCondense.clearSessionIndex', 'confirmed');
		mkdirSync(folder(), { recursive: true });
		const output = 'x'.repeat(1024 * 1024);
		for (let i = 0; i < SESSIONS; i++) {
			const builder = new SessionBuilder({ id: `build-${i}`, cwd: '/tmp/index-build', timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString() });
			builder.user(`Build session ${i}`);
			builder.assistant([{ type: 'toolCall', id: `c${i}`, name: 'bash', arguments: { command: 'cat big' } }]);
			builder.toolResult(`c${i}`, 'bash', output);
			builder.assistant([{ type: 'text', text: 'Read it.' }]);
			const path = join(folder(), `2026-01-01T00-${String(i).padStart(2, '0')}-00-000Z_build-${i}.jsonl`);
			writeFileSync(path, builder.text());
			paths.push(path);
		}
	});

	after(async () => {
		rmSync(folder(), { recursive: true, force: true });
		await waitUntil(() => paths.every((path) => !api.controller.knowsSession(path)), 'the test sessions unlisted');
	});

	it('shows its progress, stops on Cancel keeping what it read, and is completed by the next start', async () => {
		const states: string[] = [];
		const seen = api.controller.onDidChangeIndexState((state) => {
			states.push(state.kind === 'building' ? `building ${state.progress.filesDone}/${state.progress.filesTotal}` : state.kind);
			if (state.kind === 'building') {
				api.controller.cancelIndexBuild();
			}
		});
		try {
			await vscode.commands.executeCommand('piCondense.refresh');
			await waitUntil(() => api.controller.indexState?.kind === 'stopped', `the build stopped (states: ${states.join(', ')})`, 60_000);
		} finally {
			seen.dispose();
		}
		// The sessions it did not reach are listed all the same, from their files.
		await waitUntil(() => paths.every((path) => api.controller.knowsSession(path)), 'every session listed after the stop');
		const building = states.find((state) => state.startsWith('building'));
		assert.ok(building, states.join(', '));
		assert.match(building, new RegExp(`/(${SESSIONS + 3}|${SESSIONS + 4}|${SESSIONS + 5})$`), 'the count of every session file');
		await vscode.commands.executeCommand('piCondense.refresh');
		await waitUntil(() => api.controller.indexState?.kind === 'ready', 'the build completed', 120_000);
		await waitUntil(() => paths.every((path) => api.controller.row(path)?.summary !== undefined), 'every session listed with its summary');
		assert.equal(api.controller.titleOf(paths[SESSIONS - 1] ?? ''), `Build session ${SESSIONS - 1}`);
	});
});

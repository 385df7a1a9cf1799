/**
 * Deactivation leaves nothing of ours running. Runs last (index.ts orders it so): it deactivates the
 * extension. While the extension watches its sessions, follows the selected one and runs a flush
 * whose summarizer call never gets an answer, and computes another session's insight for a view
 * (seconds of slices on 8 MB), an async hook records every resource (watcher, timer,
 * child process, socket, file handle…) created directly by our bundles (the first frame of its
 * creation stack outside Node's own code is in dist/); after `deactivate` none may be left.
 */
import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { createRequire } from 'node:module';
import { appendFileSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import * as vscode from 'vscode';
import type { FlushOutcome } from '../../src/node/flush/flushOutcome';
import { startFakeLlmServer } from '../support/fakeLlmServer';
import { realSessionsDir } from '../support/paths';
import { writeRepeatedSession } from '../support/repeatSession';
import { activeApi, EXTENSION_ID, fixtures, selectIdleSession, waitUntil } from './helpers';

interface TrackedResource {
	readonly type: string;
	readonly createdAt: string;
}

/** Resources created by our code (the extension's dist/ bundles), until destroyed (closed, cleared, fired, finished). */
function trackResources(extensionPath: string): { live: Map<number, TrackedResource>; stop: () => void } {
	const ownCode = [join(extensionPath, 'dist', sep), join(extensionPath, 'src', sep)];
	const live = new Map<number, TrackedResource>();
	const hook = createHook({
		init(asyncId, type) {
			if (type === 'PROMISE') {
				return; // settled promises are never "destroyed" before collection; what they wait on is tracked
			}
			const limit = Error.stackTraceLimit;
			Error.stackTraceLimit = 40;
			const stack = new Error().stack ?? '';
			Error.stackTraceLimit = limit;
			const frame = stack.split('\n').slice(1).find((line) => !line.includes('node:') && !line.includes(__filename));
			// Our bundles, or our sources should a source map be applied to the stack.
			if (frame !== undefined && ownCode.some((folder) => frame.includes(folder))) {
				live.set(asyncId, { type, createdAt: frame.trim() });
			}
		},
		destroy(asyncId) {
			live.delete(asyncId);
		},
	});
	hook.enable();
	return { live, stop: () => hook.disable() };
}

describe('deactivating the extension', function () {
	this.timeout(60_000);

	it('aborts the running flush and leaves no watcher, timer, child process or handle of ours', async () => {
		const api = await activeApi();
		const extension = vscode.extensions.getExtension(EXTENSION_ID);
		assert.ok(extension);
		const bundleDir = join(extension.extensionPath, 'dist');
		const { agentDir, basic } = fixtures();
		const settingsPath = join(agentDir, 'settings.json');
		const modelsPath = join(agentDir, 'models.json');
		const settingsBefore = readFileSync(settingsPath, 'utf8');
		const server = await startFakeLlmServer({ hang: true });
		const sessionPath = join(dirname(basic.path), '2026-12-04T10-00-00-000Z_shutdown.jsonl');
		const bigPath = join(dirname(basic.path), '2026-12-04T10-00-01-000Z_shutdown-big.jsonl');
		writeRepeatedSession(join(realSessionsDir, 'large-session.migrated-v3.jsonl'), bigPath, 8 * 1024 * 1024);
		const tracked = trackResources(extension.extensionPath);
		try {
			writeFileSync(modelsPath, JSON.stringify({
				providers: { 'fake-llm': { baseUrl: `${server.url}/v1`, api: 'openai-completions', apiKey: 'FAKE_LLM_TEST_KEY_UNSET', models: [{ id: 'fake-model' }] } },
			}));
			// Started again under the hook: the watchers, the settings and release sources are created now.
			await api.controller.restart();
			await api.controller.updatePruneSettings((raw) => ({ ...raw, enabled: true, summarizerModel: 'fake-llm/fake-model', minBatchChars: 50 }));
			await selectIdleSession(api, sessionPath, 'shutdown', 'Shutdown test: look at the project', 'total 0\n'.repeat(40));

			const flushing = vscode.commands.executeCommand<FlushOutcome | undefined>('piCondense.flushNow');
			let early: FlushOutcome | undefined;
			void flushing.then((outcome) => (early = outcome));
			await waitUntil(() => server.requests.length > 0 || early !== undefined, 'the summarizer call reached the server');
			assert.equal(early, undefined, `the flush ended before its summarizer call: ${early?.message ?? ''}`);
			// A change the watcher is still following when the window closes.
			appendFileSync(sessionPath, `${JSON.stringify({ type: 'custom', customType: 'shutdown-test', id: 'sd-x', parentId: null, timestamp: new Date().toISOString() })}\n`);
			// Work a view asked for and still computing when the window closes: deactivate stops it and waits for it.
			await waitUntil(() => api.sessionsTree.shownProjects().some((project) => project.sessions.some((session) => session.path === bigPath)), 'the 8 MB session listed', 60_000);
			const asked = api.controller.insightFor(bigPath).then(() => 'finished', () => 'stopped');
			const types = new Set([...tracked.live.values()].map((resource) => resource.type));
			assert.ok(types.has('FSEVENTWRAP'), `the hook sees our watchers (it saw ${[...types].join(', ')})`);

			// The module VS Code loaded (Node's module cache is shared by the extension host).
			const main = createRequire(__filename)(join(bundleDir, 'extension.js')) as { deactivate(): Promise<void> };
			await main.deactivate();
			// Deactivation waited for the flush: it has ended by now, or it was never aborted.
			const outcome = await Promise.race([flushing, new Promise<'still running'>((done) => setTimeout(() => done('still running'), 1000))]);
			// Close callbacks run on the next turns of the event loop.
			await new Promise((done) => setTimeout(done, 200));
			const left = [...tracked.live.values()].map((resource) => `${resource.type} created ${resource.createdAt}`);
			assert.deepEqual(left, [], 'nothing of ours is left running after deactivate');
			assert.equal(outcome === 'still running' ? outcome : outcome?.kind, 'aborted', 'the flush was aborted');
			assert.equal(await asked, 'stopped', 'the insight asked for was stopped, not computed to the end');
		} finally {
			tracked.stop();
			writeFileSync(settingsPath, settingsBefore);
			unlinkSync(modelsPath);
			unlinkSync(sessionPath);
			unlinkSync(bigPath);
			await server.close();
		}
	});
});

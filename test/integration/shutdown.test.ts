/**
 * Deactivation leaves nothing of ours running. Runs last (index.ts orders it so): it deactivates the
 * extension. While the extension watches its sessions, runs a flush whose summarizer call never gets
 * an answer, computes another session's insight for a view (seconds of slices on 8 MB), is connected
 * to a real Pi 1.6.0 through its bridge and renders Last sent for that Pi's session (an 8 MB branch
 * ending in a compaction: a small request, a long prediction), an async hook records every resource
 * (watcher, timer, immediate, child process, socket, file handle…) created directly by our bundles
 * (the first frame of its creation stack outside Node's own code is in dist/). After `deactivate` none
 * may be left, and none may be created: nothing of ours runs once it has resolved.
 */
import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { createRequire } from 'node:module';
import { appendFileSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import * as vscode from 'vscode';
import type { FlushOutcome } from '../../src/node/flush/flushOutcome';
import { startFakeLlmServer } from '../support/fakeLlmServer';
import { realSessionsDir } from '../support/paths';
import { writeRepeatedSession } from '../support/repeatSession';
import { sessionFolderName, type RealPi } from '../support/realPi';
import { activeApi, EXTENSION_ID, fixtures, selectIdleSession, waitUntil } from './helpers';
import { startLivePi } from './liveHelpers';

interface TrackedResource {
	readonly type: string;
	readonly createdAt: string;
}

/** A resource the slicer creates to let the thread go between two slices: a slice ran just before it. */
const SLICE_FRAME = /\b(runSliced|startOrContinueSlice)\b/;

/**
 * Resources created by our code (the extension's dist/ bundles), until destroyed (closed, cleared, fired,
 * finished); once `deactivating` is called, every slice that still runs; and once `closed` is called,
 * every resource created after it.
 */
function trackResources(extensionPath: string): {
	live: Map<number, TrackedResource>; sliced: TrackedResource[]; late: TrackedResource[]; deactivating: () => void; closed: () => void; stop: () => void;
} {
	const ownCode = [join(extensionPath, 'dist', sep), join(extensionPath, 'src', sep)];
	const live = new Map<number, TrackedResource>();
	const sliced: TrackedResource[] = [];
	const late: TrackedResource[] = [];
	let afterDeactivate = false;
	let afterClose = false;
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
				const resource = { type, createdAt: frame.trim() };
				live.set(asyncId, resource);
				if (afterDeactivate && SLICE_FRAME.test(resource.createdAt)) {
					sliced.push(resource);
				}
				if (afterClose) {
					late.push(resource);
				}
			}
		},
		destroy(asyncId) {
			live.delete(asyncId);
		},
	});
	hook.enable();
	return { live, sliced, late, deactivating: () => (afterDeactivate = true), closed: () => (afterClose = true), stop: () => hook.disable() };
}

/**
 * A session of 8 MB (a real one repeated) in the workspace's project, ending in a compaction that keeps
 * nothing before it: Pi resumed on it sends a small request, while predicting that request walks the
 * whole branch.
 */
function writeLongCompactedSession(path: string): void {
	writeRepeatedSession(join(realSessionsDir, 'large-session.migrated-v3.jsonl'), path, 8 * 1024 * 1024);
	const lines = readFileSync(path, 'utf8').split('\n').filter((line) => line !== '');
	const header = { ...(JSON.parse(lines[0] ?? '{}') as Record<string, unknown>), cwd: fixtures().workspace };
	const last = JSON.parse(lines.at(-1) ?? '{}') as { id: string };
	const compaction = { type: 'compaction', id: 'sd-compact', parentId: last.id, timestamp: new Date().toISOString(), summary: 'Shutdown test: the work so far.', firstKeptEntryId: 'sd-compact', tokensBefore: 2_000_000 };
	writeFileSync(path, `${[JSON.stringify(header), ...lines.slice(1), JSON.stringify(compaction)].join('\n')}\n`);
}

describe('deactivating the extension', function () {
	// A real Pi starts (on the Node Pi 1.x needs) and resumes an 8 MB session.
	this.timeout(240_000);

	it('aborts the running flush, stops the Last sent render of a live Pi, and leaves nothing of ours running', async () => {
		const api = await activeApi();
		const extension = vscode.extensions.getExtension(EXTENSION_ID);
		assert.ok(extension);
		const bundleDir = join(extension.extensionPath, 'dist');
		const { agentDir, basic } = fixtures();
		const settingsPath = join(agentDir, 'settings.json');
		const modelsPath = join(agentDir, 'models.json');
		const settingsBefore = readFileSync(settingsPath, 'utf8');
		const server = await startFakeLlmServer({ hang: true });
		// The live Pi's model answers at once.
		const piServer = await startFakeLlmServer({ text: 'Done.' });
		const sessionPath = join(dirname(basic.path), '2026-12-04T10-00-00-000Z_shutdown.jsonl');
		const bigPath = join(dirname(basic.path), '2026-12-04T10-00-01-000Z_shutdown-big.jsonl');
		writeRepeatedSession(join(realSessionsDir, 'large-session.migrated-v3.jsonl'), bigPath, 8 * 1024 * 1024);
		const livePath = join(fixtures().sessionsDir, sessionFolderName(fixtures().workspace), '2026-12-04T10-00-02-000Z_shutdown-live.jsonl');
		writeLongCompactedSession(livePath);
		const temps: string[] = [];
		let pi: RealPi | undefined;
		const tracked = trackResources(extension.extensionPath);
		try {
			writeFileSync(modelsPath, JSON.stringify({
				providers: { 'fake-llm': { baseUrl: `${server.url}/v1`, api: 'openai-completions', apiKey: 'FAKE_LLM_TEST_KEY_UNSET', models: [{ id: 'fake-model' }] } },
			}));
			// Started again under the hook: the watchers, the settings and release sources are created now.
			await api.controller.restart();
			await api.controller.updatePruneSettings((raw) => ({ ...raw, enabled: true, summarizerModel: 'fake-llm/fake-model', minBatchChars: 50 }));
			await selectIdleSession(api, sessionPath, 'shutdown', 'Shutdown test: look at the project', 'total 0\n'.repeat(40));

			const flushing = vscode.commands.executeCommand<FlushOutcome | undefined>('piCondense.flushNow', sessionPath);
			let early: FlushOutcome | undefined;
			void flushing.then((outcome) => (early = outcome));
			await waitUntil(() => server.requests.length > 0 || early !== undefined, 'the summarizer call reached the server');
			assert.equal(early, undefined, `the flush ended before its summarizer call: ${early?.message ?? ''}`);
			// A change the watcher is still following when the window closes.
			appendFileSync(sessionPath, `${JSON.stringify({ type: 'custom', customType: 'shutdown-test', id: 'sd-x', parentId: null, timestamp: new Date().toISOString() })}\n`);
			// Work a view asked for and still computing when the window closes: deactivate stops it and waits for it.
			await waitUntil(() => api.sessionsTree.shownProjects().some((project) => project.sessions.some((session) => session.path === bigPath)), 'the 8 MB session listed', 60_000);

			// A live Pi resumed on the long session, selected in VS Code; its next request is rendered for Last sent.
			pi = await startLivePi(piServer, 'pruner-stand-in', temps, fixtures().workspace, ['--session', livePath]);
			await waitUntil(() => api.live.forSession(livePath) !== undefined && api.controller.knowsSession(livePath), 'VS Code connected to the live Pi on the long session', 90_000);
			await vscode.commands.executeCommand('piCondense.selectSession', livePath);
			await pi.prompt('Shutdown test: one more request.', 120_000);
			await waitUntil(() => api.lastSent.view !== undefined && api.lastSent.view.comparison !== 'pending', 'Last sent of the request, checked', 90_000);
			// New settings: Last sent renders the request again (the views and the preview too). The render runs in
			// slices, so it is under way when the change has been written and read back.
			await api.controller.updatePruneSettings((raw) => ({ ...raw, minBatchChars: 60 }));
			assert.equal(api.lastSent.rendering, true, 'the Last sent render under way');
			const asked = api.controller.insightFor(bigPath).then(() => 'finished', () => 'stopped');
			const types = new Set([...tracked.live.values()].map((resource) => resource.type));
			assert.ok(types.has('FSEVENTWRAP'), `the hook sees our watchers (it saw ${[...types].join(', ')})`);
			assert.ok(types.has('PIPECONNECTWRAP') || types.has('PIPEWRAP'), `the hook sees our connection to the bridge (it saw ${[...types].join(', ')})`);

			// The module VS Code loaded (Node's module cache is shared by the extension host).
			const main = createRequire(__filename)(join(bundleDir, 'extension.js')) as { deactivate(): Promise<void> };
			tracked.deactivating();
			await main.deactivate();
			tracked.closed();
			assert.deepEqual(tracked.sliced.map((resource) => resource.createdAt), [], 'no slice of ours ran once deactivate began: every long pass stopped at its next pause');
			assert.equal(api.lastSent.rendering, false, 'the Last sent render was stopped, and deactivate waited for it');
			// Deactivation waited for the flush: it has ended by now, or it was never aborted.
			const outcome = await Promise.race([flushing, new Promise<'still running'>((done) => setTimeout(() => done('still running'), 1000))]);
			// Close callbacks run on the next turns of the event loop.
			await new Promise((done) => setTimeout(done, 200));
			const left = [...tracked.live.values()].map((resource) => `${resource.type} created ${resource.createdAt}`);
			assert.deepEqual(left, [], 'nothing of ours is left running after deactivate');
			assert.deepEqual(tracked.late.map((resource) => `${resource.type} created ${resource.createdAt}`), [], 'nothing of ours ran after deactivate');
			assert.equal(outcome === 'still running' ? outcome : outcome?.kind, 'aborted', 'the flush was aborted');
			assert.equal(await asked, 'stopped', 'the insight asked for was stopped, not computed to the end');
		} finally {
			tracked.stop();
			writeFileSync(settingsPath, settingsBefore);
			unlinkSync(modelsPath);
			unlinkSync(sessionPath);
			unlinkSync(bigPath);
			await pi?.stop();
			rmSync(livePath, { force: true });
			for (const dir of temps) {
				rmSync(dir, { recursive: true, force: true });
			}
			await server.close();
			await piServer.close();
		}
	});
});

/**
 * `/pruner now` and `/pruner compact` in real VS Code: the real pi-ai client (dist/pi-ai.js, loaded
 * by the extension's pi-ai worker thread, never by the extension host) against the fake OpenAI
 * server on 127.0.0.1, a real session file and the safe writer. Now writes pi-condense's entries and every view follows; cancelling writes nothing; when Pi
 * later continues from before our entries, the stranded-entries monitor says so.
 */
import assert from 'node:assert/strict';
import { appendFileSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { FlushOutcome } from '../../src/node/flush/flushOutcome';
import { startFakeLlmServer, type FakeLlmServer } from '../support/fakeLlmServer';
import { SessionBuilder } from '../support/sessionBuilder';
import { engineView } from './engineExpectations';
import { activeApi, contextPruneOnDisk, fixtures, waitUntil } from './helpers';

const OUTPUT = (name: string, lines: number): string => Array.from({ length: lines }, (_, i) => `${name} line ${i}: ${'x'.repeat(40)}`).join('\n');

/** A session Pi left a minute ago: two turns of tool calls, then the agent's final reply. */
function writeSession(name: string): { path: string; builder: SessionBuilder } {
	const { basic, workspace } = fixtures();
	const path = join(dirname(basic.path), `2026-12-03T10-00-00-000Z_${name}.jsonl`);
	const builder = new SessionBuilder({ id: name, cwd: workspace, timestamp: new Date().toISOString() });
	builder.user(`Flush test ${name}: look at the project`);
	builder.assistant([
		{ type: 'toolCall', id: `${name}-c1`, name: 'bash', arguments: { command: 'ls -la' } },
		{ type: 'toolCall', id: `${name}-c2`, name: 'read', arguments: { path: 'src/app.js' } },
	]);
	builder.toolResult(`${name}-c1`, 'bash', OUTPUT('ls', 20));
	builder.toolResult(`${name}-c2`, 'read', OUTPUT('app', 30));
	builder.assistant([{ type: 'toolCall', id: `${name}-c3`, name: 'read', arguments: { path: 'src/util.js' } }]);
	builder.toolResult(`${name}-c3`, 'read', OUTPUT('util', 25));
	builder.assistant([{ type: 'text', text: 'The project has an app and a util module.' }]);
	writeFileSync(path, builder.text());
	const aMinuteAgo = new Date(Date.now() - 60_000);
	utimesSync(path, aMinuteAgo, aMinuteAgo);
	return { path, builder };
}

describe('flushing from VS Code', function () {
	this.timeout(60_000);
	let server: FakeLlmServer;
	let original: Record<string, unknown>;
	const created: string[] = [];
	const modelsPath = (): string => join(fixtures().agentDir, 'models.json');

	before(async () => {
		const api = await activeApi();
		server = await startFakeLlmServer({ text: '- [[1:bash]] listed the project\n- [[2:read]] read the app' });
		writeFileSync(modelsPath(), JSON.stringify({
			providers: { 'fake-llm': { baseUrl: `${server.url}/v1`, api: 'openai-completions', apiKey: 'FAKE_LLM_TEST_KEY_UNSET', models: [{ id: 'fake-model' }] } },
		}, null, 2));
		original = contextPruneOnDisk();
		await api.controller.updatePruneSettings((raw) => ({ ...raw, enabled: true, summarizerModel: 'fake-llm/fake-model', minBatchChars: 50 }));
	});

	after(async () => {
		const api = await activeApi();
		await api.controller.updatePruneSettings(() => original);
		unlinkSync(modelsPath());
		for (const path of created) {
			unlinkSync(path);
		}
		await server.close();
		await vscode.commands.executeCommand('piCondense.selectSession', fixtures().basic.path);
	});

	it('summarizes the pending batches, writes the entries, and the views, status bar and recovery follow', async () => {
		const api = await activeApi();
		const { path } = writeSession('flush-now');
		created.push(path);
		await waitUntil(() => api.controller.knowsSession(path), 'the session listed');
		await vscode.commands.executeCommand('piCondense.selectSession', path);
		await waitUntil(() => api.prunedTree.rootNodes.some((node) => node.data.label === 'Pending'), 'its pending batches shown');
		assert.equal(api.statusBar.item.text, 'prune: 2 pending');

		const before = readFileSync(path, 'utf8');
		const outcome = await vscode.commands.executeCommand<FlushOutcome>('piCondense.flushNow');
		assert.equal(outcome.kind, 'written', `${outcome.message} ${outcome.advice ?? ''}`);
		assert.match(outcome.message, /^pruner: pruned 3 tool calls from 2 batches — summary \d+ chars vs \d+ raw chars$/);
		assert.ok(server.requests.length >= 2, 'the fake server answered the summarizer calls');
		assert.ok(!Object.keys(require.cache).some((file) => file.endsWith(join('dist', 'pi-ai.js')) || file.includes('@mariozechner/pi-ai')), 'pi-ai ran in the worker thread, never in the extension host');
		const after = readFileSync(path, 'utf8');
		assert.ok(after.startsWith(before) && after.length > before.length, 'entries appended, nothing else changed');

		const expected = engineView(path);
		await waitUntil(() => api.prunedTree.rootNodes.filter((node) => node.data.kind === 'summary').length === expected.summaryHeaders.length
			&& !api.prunedTree.rootNodes.some((node) => node.data.label === 'Pending'), 'the summaries shown, nothing pending');
		assert.deepEqual(api.prunedTree.rootNodes.filter((node) => node.data.kind === 'summary').map((node) => node.data.label), expected.summaryLabels);
		await waitUntil(() => api.statusBar.item.text === expected.statusText, `status ${expected.statusText} (is ${api.statusBar.item.text})`);
		assert.match(expected.statusText, /^prune: ON · /);
		assert.equal(await api.controller.recover(path, ['t1']), (await (await import('../../src/engine/condense')).recoverOutputs(expected.state, ['t1'], expected.blobs)).text);
	});

	it('says when Pi continues from before our entries (stranded on a side branch)', async () => {
		const api = await activeApi();
		const path = created[0]!;
		const model = (await api.controller.openSession(path)).model;
		const piLeaf = model.entries.filter((entry) => entry.type === 'message').at(-1)!.id;
		const stranded = new Promise<{ path: string; state: { stranded: readonly string[] } }>((resolve) => {
			const subscription = api.flush.monitor.onDidStrandEntries((event) => {
				subscription.dispose();
				resolve(event);
			});
		});
		appendFileSync(path, `${JSON.stringify({ type: 'message', id: 'pi-after', parentId: piLeaf, timestamp: new Date().toISOString(), message: { role: 'user', content: [{ type: 'text', text: 'next prompt' }], timestamp: Date.now() } })}\n`);
		const event = await stranded;
		assert.equal(event.path, path);
		assert.ok(event.state.stranded.length >= 4, 'our summary, index, frontier and stats entries');
	});

	it('cancelling aborts the summarizer call and writes nothing', async () => {
		const api = await activeApi();
		const { path } = writeSession('flush-cancel');
		created.push(path);
		await waitUntil(() => api.controller.knowsSession(path), 'the session listed');
		await vscode.commands.executeCommand('piCondense.selectSession', path);
		await waitUntil(() => api.controller.insight()?.pending.length === 2, 'its pending batches read');
		const before = readFileSync(path, 'utf8');
		const requests = server.requests.length;
		server.enqueue({ hang: true }); // interactive: one call at a time, so only the first batch is asked
		const running = vscode.commands.executeCommand<FlushOutcome>('piCondense.flushNow');
		await waitUntil(() => server.requests.length > requests, 'the summarizer call reached the server');
		assert.equal(api.statusBar.item.text, 'prune: summarizing…');
		api.flush.runner.cancel();
		const outcome = await running;
		assert.equal(outcome.kind, 'aborted', outcome.message);
		assert.equal(outcome.message, 'pruner: nothing flushed — aborted');
		assert.equal(readFileSync(path, 'utf8'), before, 'the file is byte-identical');
		await waitUntil(() => api.statusBar.item.text === 'prune: 2 pending', 'the status back to pending');
	});

	it('flushes an idle session by itself when auto-flush is on (opt-in), at most piCondense.summarizer.concurrency calls at once', async () => {
		const api = await activeApi();
		const settings = vscode.workspace.getConfiguration('piCondense');
		await settings.update('summarizer.concurrency', 1, vscode.ConfigurationTarget.Global);
		await settings.update('autoFlush.onIdle', true, vscode.ConfigurationTarget.Global);
		// Two batches answered slowly: with the default (32) both calls would be in flight together.
		const reply = { text: '- [[1:bash]] listed the project\n- [[2:read]] read the app', latencyMs: 400 };
		server.enqueue(reply, reply);
		server.resetPeak();
		try {
			const { path } = writeSession('flush-auto');
			created.push(path);
			const before = readFileSync(path, 'utf8');
			await waitUntil(() => api.controller.knowsSession(path), 'the session listed');
			await vscode.commands.executeCommand('piCondense.selectSession', path);
			await waitUntil(() => readFileSync(path, 'utf8').length > before.length, 'entries appended by the auto-flush', 30_000);
			await waitUntil(() => !api.flush.runner.isRunning, 'the auto-flush done');
			assert.equal(server.requests.at(-1)?.body.model, 'fake-model');
			assert.equal(engineView(path).pendingCount, 0);
			assert.ok(readFileSync(path, 'utf8').includes('"customType":"context-prune-summary"'));
			assert.ok(!Object.keys(require.cache).some((file) => file.endsWith(join('dist', 'pi-ai.js'))), 'the auto-flush did not load pi-ai in the extension host');
			assert.equal(server.peakInFlight, 1, 'one summarizer call at a time');
		} finally {
			await settings.update('autoFlush.onIdle', undefined, vscode.ConfigurationTarget.Global);
			await settings.update('summarizer.concurrency', undefined, vscode.ConfigurationTarget.Global);
		}
	});

	it('after a flush killed before its chain entries, says how many chains can be compacted (status bar, Show Status, now) and compact takes them', async () => {
		const api = await activeApi();
		await api.controller.updatePruneSettings((raw) => ({ ...raw, chainCompression: { enabled: true, rollingWindow: 1, stripFinalAssistantThinking: true, fuseRangeSummary: true } }));
		const { path, builder } = writeSession('flush-killed');
		created.push(path);
		builder.user('Flush test flush-killed: and the tests');
		builder.assistant([{ type: 'toolCall', id: 'flush-killed-c4', name: 'bash', arguments: { command: 'npm test' } }]);
		builder.toolResult('flush-killed-c4', 'bash', OUTPUT('test', 20));
		builder.assistant([{ type: 'text', text: 'The tests pass.' }]);
		writeFileSync(path, builder.text());
		const old = new Date(Date.now() - 60_000);
		utimesSync(path, old, old);
		await waitUntil(() => api.controller.knowsSession(path), 'the session listed');
		await vscode.commands.executeCommand('piCondense.selectSession', path);
		await waitUntil(() => (api.controller.insight()?.pending.length ?? 0) > 0, 'its pending batches read');
		const flushed = await vscode.commands.executeCommand<FlushOutcome>('piCondense.flushNow');
		assert.equal(flushed.kind, 'written', flushed.message);
		// The file as a kill right before the chain entry leaves it.
		const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
		const chainAt = lines.findIndex((line) => line.includes('"customType":"context-prune-chain"'));
		assert.ok(chainAt > 0, 'the flush compressed the older chain');
		writeFileSync(path, `${lines.slice(0, chainAt).join('\n')}\n`);
		utimesSync(path, old, old);
		await waitUntil(() => api.controller.insight()?.compactableChains === 1, 'the chain left for compact counted');
		const tooltip = (): string => (api.statusBar.item.tooltip as vscode.MarkdownString | undefined)?.value ?? '';
		await waitUntil(() => tooltip().includes('1 chain can be compacted'), `the tooltip says so (${tooltip()})`);
		assert.match(tooltip(), /\[Compact\]\(command:piCondense\.compact\)/);
		const status = await vscode.commands.executeCommand<string>('piCondense.status');
		assert.match(status, /\n1 chain can be compacted: Compact Closed Chains Now compresses them\n/);
		const resumed = await vscode.commands.executeCommand<FlushOutcome>('piCondense.flushNow');
		assert.equal(resumed.kind, 'nothing', resumed.message);
		assert.equal(resumed.message, 'pruner: nothing pending — no batches to summarize');
		assert.equal(resumed.report?.compactableChains, 1);
		const compacted = await vscode.commands.executeCommand<FlushOutcome>('piCondense.compact');
		assert.equal(compacted.kind, 'written', compacted.message);
		await waitUntil(() => api.controller.insight()?.compactableChains === 0 && !tooltip().includes('can be compacted'), 'nothing left for compact');
	});

	it('compact runs on the selected session and reports in pi-condense\'s words', async () => {
		const api = await activeApi();
		const idle = created[1]!; // the cancelled one: untouched, quiet for a minute
		await vscode.commands.executeCommand('piCondense.selectSession', idle);
		await waitUntil(() => api.controller.selected === idle, 'the idle session selected');
		const outcome = await vscode.commands.executeCommand<FlushOutcome>('piCondense.compact');
		assert.ok(outcome.kind === 'written' || outcome.kind === 'nothing', `${outcome.kind}: ${outcome.message}`);
		assert.match(outcome.message, /^pruner: /);
	});

	it('the page\'s Summarize now flushes the selected session by a typed call, not through the command registry', async () => {
		const api = await activeApi();
		const { path } = writeSession('page-summarize');
		created.push(path);
		await waitUntil(() => api.controller.knowsSession(path), 'the session listed');
		await vscode.commands.executeCommand('piCondense.selectSession', path);
		await waitUntil(() => api.controller.insight()?.pending.length === 2, 'its pending batches read');
		const before = readFileSync(path, 'utf8');
		// Every command run while the page's button is handled is recorded: the flush must not be one of them.
		const commands = vscode.commands as { executeCommand: typeof vscode.commands.executeCommand };
		const original = commands.executeCommand;
		const ran: string[] = [];
		commands.executeCommand = (command: string, ...rest: unknown[]) => {
			ran.push(command);
			return original(command, ...rest);
		};
		try {
			await api.sessionFeed.summarizeNow();
		} finally {
			commands.executeCommand = original;
		}
		const added = readFileSync(path, 'utf8').slice(before.length).trimEnd().split('\n').map((line) => (JSON.parse(line) as { customType?: string }).customType);
		assert.deepEqual(added.slice(0, 2), ['context-prune-summary', 'context-prune-index'], 'the pending batches were summarized and written');
		assert.deepEqual(ran.filter((command) => command.startsWith('piCondense.')), [], 'no command of ours was run for it');
	});
});


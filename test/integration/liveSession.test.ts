/**
 * A live session end to end: a real Pi 1.6.0 in RPC mode (on the Node Pi 1.x needs) with the bridge from
 * this extension's dist/bridge and a /pruner stand-in loaded before it, writing its session where VS Code
 * reads them, against the fake model server on 127.0.0.1. VS Code sees the session live (Pi Sessions, the
 * status bar), Last sent is exactly what the server received and matches the preview, the preview's page
 * and the Open the Last Request document (written for reading) show it, and "Summarize Pending Batches Now" writes nothing and,
 * Pi being in RPC mode (where it cannot see a draft in its editor), puts nothing into Pi's editor either,
 * saying what to type instead. A second Pi whose pruner stand-in
 * changes the context shows a difference, which is logged. `/new` in one Pi and a SIGKILL of the other are
 * followed (the old session no longer live, the stale record removed), and no token reaches the log.
 * Connect and Disconnect write and remove the bridge in the agent dir VS Code uses, and the palette's
 * context keys follow (Connect offered until it is installed, Open the Last Request on a live session).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/host/extensionApi';
import type { SessionNode } from '../../src/host/tree/sessionTreeItems';
import { foldedValue, parseRequestDocument } from '../support/readableRequest';
import { fixtures, logText, nextRenderReport, waitUntil } from './helpers';
import { liveSuite, startLivePi } from './liveHelpers';

function sessionRow(api: ExtensionApi, path: string): vscode.TreeItem | undefined {
	for (const project of api.sessionsTree.getChildren()) {
		const node = api.sessionsTree.getChildren(project).find((child): child is SessionNode => child.kind === 'session' && child.item.path === path);
		if (node) {
			return api.sessionsTree.getTreeItem(node);
		}
	}
	return undefined;
}

describe('a live session: real Pi 1.6.0 with the bridge', function () {
	this.timeout(180_000);
	const suite = liveSuite();
	const { pis, temps } = suite;

	it('is seen live, Last sent is what the suite.server received and matches the preview (a tool call and its result included), and Prune now writes nothing and, Pi being in RPC mode, puts nothing into its editor', async () => {
		const pi = await startLivePi(suite.server, 'pruner-stand-in', temps);
		pis.push(pi);
		// A tool call Pi really runs: the context holds a tool call and its result too.
		suite.server.enqueue({ text: 'Listing.', toolCalls: [{ id: 'call_1', name: 'bash', arguments: { command: 'echo hello from the tool' } }] });
		await pi.prompt('First: list the files.');
		await waitUntil(() => suite.api.live.pis.some((live) => live.state.pid === pi.pid), 'VS Code connected to the Pi\'s bridge', 60_000);
		const path = suite.api.live.pis.find((live) => live.state.pid === pi.pid)?.state.sessionFile ?? '';
		await waitUntil(() => suite.api.controller.sessionPaths().includes(path), 'the Pi\'s session listed');
		assert.equal(suite.api.live.forSession(path)?.state.pid, pi.pid);
		await waitUntil(() => /^session(:selected)?:live$/.test(String(sessionRow(suite.api, path)?.contextValue)), 'the session marked live in Pi Sessions');
		assert.match(String(sessionRow(suite.api, path)?.description), /^live · /);

		await vscode.commands.executeCommand('piCondense.selectSession', path);
		await waitUntil(() => suite.api.statusBar.item.text.includes('$(radio-tower)'), 'Pi\'s own figure in the status bar');
		assert.equal(suite.api.contextKeys.value('piCondense.liveSession'), true, 'the palette offers Open the Last Request Pi Sent');
		await pi.prompt('Second: now the tests.');
		await waitUntil(() => (suite.api.lastSent.view?.seq ?? 0) >= 3 && suite.api.lastSent.view?.comparison === 'match', 'Last sent of the third request, checked', 60_000);
		const view = suite.api.lastSent.view;
		assert.equal(view?.summary, 'matches the last request (5 messages)');
		const received = suite.server.requests.at(-1);
		assert.ok(received);
		const live = suite.api.live.forSession(path);
		assert.ok(live?.last);
		assert.equal(await live.client.requestText(live.last.seq, 'payload'), received.rawBody, 'Last sent is byte for byte what the suite.server received');

		// The preview's page shows it; the document holds the exact payload.
		const shown = nextRenderReport(suite.api, (report) => report.cause === 'lastSent' && report.figures['lastSent.comparison'] === 'match', 60_000);
		await vscode.commands.executeCommand('piCondense.openPreview');
		assert.equal((await shown).figures['lastSent.summary'], 'matches the last request (5 messages)');
		// The usage Pi recorded for its reply to that request, once the reply is in the file, and the cache's countdown from it.
		await waitUntil(() => suite.api.lastSent.view?.usage?.ofShownRequest === true, 'the reply\'s usage in Last sent', 60_000);
		const usage = suite.api.lastSent.view?.usage;
		assert.match(usage?.text ?? '', /^\S+\/\S+: [\d.]+k? context \([\d.]+k? read from the cache, [\d.]+k? written to it, [\d.]+k? new\) · [\d.]+k? output/);
		assert.equal(usage?.clock.lifetime, 'OpenAI: 5–10 minutes idle', 'the fake provider speaks OpenAI\'s completions API');
		assert.ok((usage?.clock.warmUntil ?? 0) >= (view?.at ?? Number.POSITIVE_INFINITY), 'the countdown runs from the reply, after the request was sent');
		await vscode.commands.executeCommand('piCondense.openLastSent', path);
		await waitUntil(() => vscode.window.activeTextEditor?.document.uri.scheme === 'pi-condense-sent', 'the Last request document');
		assert.deepEqual(parseRequestDocument(vscode.window.activeTextEditor?.document.getText() ?? '').payload, foldedValue(JSON.parse(received.rawBody)), 'the payload the suite.server received');

		// "Summarize Pending Batches Now" on a live session: the file is not written, and since Pi runs in RPC mode, where
		// it cannot see whether its editor holds a draft, nothing is put there either: both sides say what to type.
		const size = statSync(path).size;
		const from = pi.records.length;
		await vscode.commands.executeCommand('piCondense.flushNow', path);
		const notice = await pi.waitFor((record) => record.type === 'extension_ui_request' && record.method === 'notify', 20_000, 'the notice', from);
		assert.match(String(notice.message), /^VS Code asked for \/pruner now: type it in the editor and press Enter/);
		await pi.command({ type: 'get_state' });
		assert.ok(!pi.records.slice(from).some((record) => record.method === 'set_editor_text'), 'nothing put into the editor');
		assert.equal(statSync(path).size, size, 'nothing written to the live session');
		assert.ok(!pi.records.slice(from).some((record) => record.type === 'agent_start'), 'nothing sent to the model');
		const log = logText(suite.api.logUri.fsPath);
		assert.match(log, /Last sent: the preview matches the last request/);
		assert.match(log, /did not take \/pruner now: it runs in RPC mode .*, so nothing was put there\. Type it in Pi's editor yourself and press Enter\./);
	});

	it('a difference between what Pi sent and the preview is shown and logged', async () => {
		const pi = await startLivePi(suite.server, 'context-changer', temps);
		pis.push(pi);
		await pi.prompt('Say hello.');
		await pi.prompt('Once more.');
		await waitUntil(() => suite.api.live.pis.some((live) => live.state.pid === pi.pid && (live.last?.seq ?? 0) >= 2), 'the second Pi\'s second request', 60_000);
		const path = suite.api.live.pis.find((live) => live.state.pid === pi.pid)?.state.sessionFile ?? '';
		await waitUntil(() => suite.api.controller.sessionPaths().includes(path), 'the second Pi\'s session listed');
		await vscode.commands.executeCommand('piCondense.selectSession', path);
		await waitUntil(() => suite.api.lastSent.view?.comparison === 'differs', 'the difference found', 60_000);
		const differences = suite.api.lastSent.view?.differences ?? [];
		assert.equal(differences.length, 2, differences.join('\n'));
		assert.match(differences[0] ?? '', /^message 1 \(user\): Pi sent \d+ characters, the preview has \d+$/);
		assert.match(differences[1] ?? '', /^message 3 \(user\): /);
		await waitUntil(() => /Last sent differs from the last request: message 1 \(user\)/.test(logText(suite.api.logUri.fsPath)), 'the difference logged');
	});

	it('follows /new in one Pi and a SIGKILL of the other, cleaning up; no token in the log', async () => {
		const [first, second] = pis;
		assert.ok(first && second, 'the two Pis of the tests above');
		const folder = join(process.env['XDG_RUNTIME_DIR'] ?? '', 'pi-condense-vscode');
		const tokens = [first, second].map((pi) => (JSON.parse(readFileSync(join(folder, `${pi.pid}.json`), 'utf8')) as { token: string }).token);
		const sessionOf = (pid: number): string => suite.api.live.pis.find((live) => live.state.pid === pid)?.state.sessionFile ?? '';
		const firstBefore = sessionOf(first.pid);
		const secondSession = sessionOf(second.pid);
		await first.command({ type: 'new_session' });
		await waitUntil(() => sessionOf(first.pid) !== firstBefore, 'the new session of the first Pi');
		await waitUntil(() => !/:live$/.test(String(sessionRow(suite.api, firstBefore)?.contextValue)), 'the first Pi\'s old session no longer live');
		assert.equal(suite.api.live.forSession(firstBefore), undefined);
		await second.kill();
		await waitUntil(() => !suite.api.live.pis.some((live) => live.state.pid === second.pid), 'the killed Pi dropped');
		await waitUntil(() => !existsSync(join(folder, `${second.pid}.json`)), 'the killed Pi\'s stale record removed');
		await waitUntil(() => !/:live$/.test(String(sessionRow(suite.api, secondSession)?.contextValue)), 'its session no longer live');
		assert.equal(suite.api.live.forSession(sessionOf(first.pid))?.state.pid, first.pid, 'the first Pi is still followed');
		// The log channel writes its file a moment after the line is logged: waited for, not read at once.
		await waitUntil(() => logText(suite.api.logUri.fsPath).includes(`removed the stale record of Pi ${second.pid}`), `the log says the stale record of Pi ${second.pid} was removed`);
		const log = logText(suite.api.logUri.fsPath);
		assert.match(log, new RegExp(`removed the stale record of Pi ${second.pid}`));
		for (const token of tokens) {
			assert.ok(!log.includes(token), 'a bridge token is in the log');
		}
	});

	it('Connect writes the bridge into the agent dir VS Code uses, last in packages; Disconnect removes it', async () => {
		const { agentDir } = fixtures();
		const settingsPath = join(agentDir, 'settings.json');
		const before = readFileSync(settingsPath, 'utf8');
		// The palette offers Connect, not Disconnect, until the bridge is installed; then the other way round.
		assert.equal(suite.api.contextKeys.value('piCondense.bridgeChecked'), true);
		assert.equal(suite.api.contextKeys.value('piCondense.bridgeReady'), false);
		assert.equal(suite.api.contextKeys.value('piCondense.bridgeInstalled'), false);
		const told = await vscode.commands.executeCommand<string>('piCondense.connectPi', 'confirmed');
		assert.equal(suite.api.contextKeys.value('piCondense.bridgeReady'), true);
		assert.equal(suite.api.contextKeys.value('piCondense.bridgeInstalled'), true);
		assert.match(told, /the bridge .* is installed in Pi, as the last package/);
		const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as { packages: unknown[]; contextPrune: unknown };
		assert.deepEqual(settings.packages, ['npm:pi-condense', './pi-condense-vscode-bridge']);
		assert.deepEqual(settings.contextPrune, (JSON.parse(before) as { contextPrune: unknown }).contextPrune);
		assert.ok(existsSync(join(agentDir, 'pi-condense-vscode-bridge', 'index.js')));
		const removed = await vscode.commands.executeCommand<string>('piCondense.disconnectPi', 'confirmed');
		assert.match(removed, /removed from Pi/);
		assert.equal(suite.api.contextKeys.value('piCondense.bridgeInstalled'), false);
		assert.equal(suite.api.contextKeys.value('piCondense.bridgeReady'), false);
		assert.deepEqual((JSON.parse(readFileSync(settingsPath, 'utf8')) as { packages: unknown[] }).packages, ['npm:pi-condense']);
		assert.ok(!existsSync(join(agentDir, 'pi-condense-vscode-bridge')));
	});
});

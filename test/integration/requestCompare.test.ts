/**
 * Readable requests and what changed between two, with a real Pi 1.6.0 and the bridge against the fake model
 * server on 127.0.0.1. Pi loads `stub-pruner` before the bridge, which, as a pruner does, replaces the outputs of
 * earlier turns' tool calls with stubs. Open the Last Request shows a read-only JSONC document VS Code's JSON
 * language service flags nothing in (an untitled document in the old form, three values one after another, is
 * flagged meanwhile: the service does run), holding the very messages Pi sent. VS Code keeps each request Pi makes
 * for the session (in memory, `piCondense.liveSessions.keptRequests` at most), and Compare with Previous Request
 * opens the diff editor on the last two, its title saying where the first difference is: the stubbed tool result.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { foldedValue as folded, parseRequestDocument as parseJsonc } from '../support/readableRequest';
import type { RealPi } from '../support/realPi';
import { waitUntil } from './helpers';
import { liveSuite, startLivePi } from './liveHelpers';

async function jsonDiagnosticsSettled(document: vscode.TextDocument): Promise<void> {
	// The old form of the document (two JSON values one after the other), opened after ours: once VS Code's JSON service
	// has flagged it, it has read ours too.
	const control = await vscode.workspace.openTextDocument({ language: 'jsonc', content: '// request 1\n[{"role":"user"}]\n\n// payload\n{"model":"m"}\n' });
	await waitUntil(() => vscode.languages.getDiagnostics(control.uri).length > 0, 'the JSON service flags the old form of the document', 60_000);
	await waitUntil(async () => ((await vscode.commands.executeCommand<unknown[]>('vscode.executeDocumentSymbolProvider', document.uri)) ?? []).length > 0, 'the JSON service read the document');
}

describe('readable requests, and Compare with Previous Request (real Pi 1.6.0 with the bridge)', function () {
	this.timeout(240_000);
	const suite = liveSuite(async () => {
		await vscode.workspace.getConfiguration('piCondense').update('liveSessions.keptRequests', undefined, vscode.ConfigurationTarget.Global);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});
	const { temps } = suite;
	let pi: RealPi | undefined;
	let path = '';

	it('Open the Last Request shows a read-only JSONC document VS Code flags nothing in, holding the messages Pi sent', async () => {
		pi = await startLivePi(suite.server, 'stub-pruner', temps);
		suite.pis.push(pi);
		const started = pi;
		// Connected before Pi sends anything: VS Code fetches each request as Pi makes it.
		await waitUntil(() => suite.api.live.pis.some((live) => live.state.pid === started.pid), 'VS Code connected to the Pi\'s bridge', 60_000);
		suite.server.enqueue({ text: 'Listing.', toolCalls: [{ id: 'call_1', name: 'bash', arguments: { command: 'printf "line one\\nline two\\n%.0s" $(seq 1 40)' } }] });
		await started.prompt('First: list the files.');
		await waitUntil(() => suite.api.live.pis.some((live) => live.state.pid === started.pid && (live.last?.seq ?? 0) >= 2), 'the Pi\'s second request seen', 60_000);
		path = suite.api.live.pis.find((live) => live.state.pid === started.pid)?.state.sessionFile ?? '';
		await waitUntil(() => suite.api.controller.sessionPaths().includes(path), 'the Pi\'s session listed');
		await vscode.commands.executeCommand('piCondense.selectSession', path);
		await waitUntil(() => suite.api.requests.requests(path).length === 2, 'both requests kept', 60_000);

		await vscode.commands.executeCommand('piCondense.openLastSent', path);
		await waitUntil(() => vscode.window.activeTextEditor?.document.uri.scheme === 'pi-condense-sent', 'the Last request document');
		const document = vscode.window.activeTextEditor?.document;
		assert.ok(document);
		assert.equal(document.languageId, 'jsonc');
		const live = suite.api.live.forSession(path);
		assert.ok(live?.last);
		const shown = parseJsonc(document.getText());
		assert.deepEqual(shown.messages, folded(JSON.parse(await live.client.requestText(live.last.seq, 'messages'))), 'the messages Pi sent, each long string folded');
		assert.deepEqual(shown.payload, folded(JSON.parse(suite.server.requests.at(-1)?.rawBody ?? 'null')), 'the payload the suite.server received');
		assert.ok(document.lineCount > 40 && document.getText().split('\n').every((line) => line.length <= 300), 'no line is a blob');
		await jsonDiagnosticsSettled(document);
		assert.deepEqual(vscode.languages.getDiagnostics(document.uri), [], 'VS Code flags nothing in the document');

		// Read-only: typing into its editor changes nothing (typing into an untitled document does: the check works).
		const untitled = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'jsonc', content: '' }));
		await vscode.commands.executeCommand('type', { text: 'x' });
		assert.equal(untitled.document.getText(), 'x', 'typing reaches a writable editor');
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
		const before = document.getText();
		await vscode.window.showTextDocument(document);
		await vscode.commands.executeCommand('type', { text: 'x' });
		assert.equal(document.getText(), before, 'typing changes nothing');
		assert.equal(document.isDirty, false);
	});

	it('keeps each request; Compare with Previous Request opens the diff editor on the last two, the first difference in its title', async () => {
		assert.ok(pi, 'the Pi of the test above');
		const started = pi;
		assert.equal(suite.api.contextKeys.value('piCondense.canCompareRequests'), true, 'two requests kept: the palette offers Compare');
		// The second turn: the stub-pruner replaces the first turn's tool output with a stub.
		await started.prompt('Second: now the tests.');
		await waitUntil(() => suite.api.requests.requests(path).length === 3, 'the third request kept', 60_000);
		const kept = suite.api.requests.requests(path);
		assert.deepEqual(kept.map((request) => request.head.seq), [1, 2, 3]);
		const toolResult = kept[2]?.messages.findIndex((message) => message.label === 'toolResult · bash') ?? -1;
		assert.ok(toolResult > 0);

		const title = await vscode.commands.executeCommand<string>('piCondense.compareRequests', path);
		assert.equal(title, `Pi ${started.pid}: request 2 ↔ 3 · first difference at message ${toolResult + 1} (toolResult · bash)`);
		await waitUntil(() => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff, 'the diff editor');
		const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
		assert.ok(tab?.input instanceof vscode.TabInputTextDiff);
		assert.equal(tab.label, title);
		const [left, right] = await Promise.all([vscode.workspace.openTextDocument(tab.input.original), vscode.workspace.openTextDocument(tab.input.modified)]);
		assert.match(left.getText(), /^\/\/ Request 2 that Pi 1\.6\.0/);
		assert.match(right.getText(), /^\/\/ Request 3 that Pi 1\.6\.0/);
		const live = suite.api.live.forSession(path);
		assert.ok(live);
		assert.deepEqual(parseJsonc(right.getText()).messages, folded(JSON.parse(await live.client.requestText(3, 'messages'))), 'the right side is request 3');
		const older = parseJsonc(left.getText()).messages;
		assert.equal(older.length, kept[1]?.messages.length, 'the left side is request 2');
		assert.match(JSON.stringify(parseJsonc(right.getText()).messages[toolResult]), /\[output pruned: call_1\]/);
		assert.doesNotMatch(JSON.stringify(older[toolResult]), /output pruned/);
		// The cursor starts at the first difference, on the right.
		const editor = vscode.window.activeTextEditor;
		assert.equal(editor?.document.uri.toString(), right.uri.toString());
		assert.match(right.lineAt(editor.selection.active.line).text, /\/\/ ── toolResult · bash$/);
		// Line-stable: the lines before the stubbed message are the same on both sides.
		const line = editor.selection.active.line;
		assert.deepEqual(right.getText().split('\n').slice(3, line), left.getText().split('\n').slice(3, line));
	});

	it('keeps at most piCondense.liveSessions.keptRequests requests per session', async () => {
		assert.ok(pi, 'the Pi of the tests above');
		await vscode.workspace.getConfiguration('piCondense').update('liveSessions.keptRequests', 2, vscode.ConfigurationTarget.Global);
		await waitUntil(() => suite.api.requests.requests(path).length === 2, 'trimmed to 2 at once');
		await pi.prompt('Third: and the docs.');
		await waitUntil(() => suite.api.requests.requests(path).at(-1)?.head.seq === 4, 'the fourth request kept', 60_000);
		assert.deepEqual(suite.api.requests.requests(path).map((request) => request.head.seq), [3, 4]);
		const title = await vscode.commands.executeCommand<string>('piCondense.compareRequests', path);
		assert.match(title, /: request 3 ↔ 4 · /);
	});
});

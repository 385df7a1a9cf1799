/**
 * A hostile session in real VS Code (test/support/hostileSession.ts): its text tries to add command
 * links to our trusted hover, to turn a chain's ref into a command link, and to make the hover, the
 * Pruned Calls tooltips and "Open Summary as Markdown" fetch images from an attacker's server (a
 * real one on 127.0.0.1). The rendered DOM is read from the workbench: the only command links are
 * ours, with our arguments, no image points anywhere, and nothing ever connects to that server.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { PrunedTreeNode } from '../../src/host/tree/prunedCallsNodes';
import { startAttackerServer, type AttackerServer } from '../support/attackerServer';
import { HOSTILE_CHAIN_REF, writeHostileSession } from '../support/hostileSession';
import { ui } from '../support/workbenchUi';
import { activeApi, fixtures, logText, waitUntil } from './helpers';

const SESSION_ID = '01a2c0de-0bad-7bad-8bad-0123456789ab';

/** Every `href` / `data-href` in some HTML. */
function linkTargets(html: string): string[] {
	return [...html.matchAll(/\b(?:data-href|href)="([^"]*)"/g)].map((match) => match[1]!.replace(/&amp;/g, '&')).filter((target) => target !== '');
}

function imageSources(html: string): string[] {
	return [...html.matchAll(/<img\b[^>]*>/g)].map((match) => match[0]);
}

function ourLink(command: string, sessionPath: string, ref: string): string {
	return `command:${command}?${encodeURIComponent(JSON.stringify([{ sessionPath, ref }]))}`;
}

/** The outer HTML of the hover widget that holds `expected`, once there is one. */
async function shownHover(expected: string, showAgain?: () => Thenable<unknown>): Promise<string> {
	const deadline = Date.now() + 15_000;
	for (let poll = 1; ; poll++) {
		const hovers = JSON.parse(await ui({ action: 'elements', selector: '.monaco-hover' }).catch(() => '[]') ?? '[]') as string[];
		const match = hovers.find((html) => html.includes(expected));
		if (match !== undefined) {
			return match;
		}
		if (Date.now() > deadline) {
			assert.fail(`no hover shows ${expected}; hovers: ${hovers.join('\n---\n').slice(0, 3000)}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
		// A hover still shown from before can keep the new one from showing on a loaded machine: ask again.
		if (showAgain && poll % 8 === 0) {
			await showAgain();
		}
	}
}

/** Shows the editor hover over `word` where it first appears after `context` in the session file. */
async function hoverInEditor(path: string, context: string, word: string): Promise<string> {
	const editor = await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: false });
	const offset = editor.document.getText().indexOf(context) + context.indexOf(word);
	assert.ok(offset >= context.indexOf(word), `${context} is in the session file`);
	const position = editor.document.positionAt(offset + 1);
	editor.selection = new vscode.Selection(position, position);
	editor.revealRange(new vscode.Range(position, position), vscode.TextEditorRevealType.InCenter);
	await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
	const show = (): Thenable<unknown> => vscode.commands.executeCommand('editor.action.showHover', { focus: false });
	await show();
	return shownHover(`>${word}<`, show);
}

describe('a hostile session in real VS Code', function () {
	this.timeout(120_000);
	let attacker: AttackerServer;
	let path = '';

	before(async () => {
		const api = await activeApi();
		attacker = await startAttackerServer();
		path = join(dirname(fixtures().basic.path), `2026-12-05T10-00-00-000Z_${SESSION_ID}.jsonl`);
		writeHostileSession(path, SESSION_ID, attacker.url);
		const aMinuteAgo = new Date(Date.now() - 60_000);
		utimesSync(path, aMinuteAgo, aMinuteAgo);
		await waitUntil(() => api.controller.knowsSession(path), 'the hostile session listed');
		await vscode.commands.executeCommand('notifications.clearAll');
	});

	after(async () => {
		const api = await activeApi();
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		if (existsSync(path)) {
			unlinkSync(path);
		}
		await attacker.close();
		await waitUntil(() => !api.controller.knowsSession(path), 'the hostile session unlisted');
		await vscode.commands.executeCommand('piCondense.selectSession', fixtures().basic.path);
		await waitUntil(() => api.controller.selected === fixtures().basic.path && api.controller.insight() !== undefined, 'the basic session selected again');
	});

	afterEach(async () => {
		// Give a rendered image time to be fetched before looking at the server.
		await new Promise((resolve) => setTimeout(resolve, 1500));
		assert.deepEqual(attacker.connections, [], 'nothing connected to the attacker\'s server');
	});

	it('hovering t3: its raw output cannot add command links or images to the hover', async () => {
		const html = await hoverInEditor(path, '`t3`', 't3');
		assert.ok(html.includes('or this'), `the hover shows the output's text: ${html.slice(0, 2000)}`);
		const commands = linkTargets(html).filter((target) => target.includes('command:'));
		assert.deepEqual(commands.sort(), [ourLink('piCondense.recoverOutput', path, 't3'), ourLink('piCondense.revealRef', path, 't3')].sort(), html);
		assert.deepEqual(imageSources(html), [], 'no image in the hover');
		assert.ok(!linkTargets(html).some((target) => target.includes(attacker.url)), 'no link to the attacker');
		await vscode.commands.executeCommand('editor.action.hideHover');
	});

	it('hovering b1: a chain ref that is a markdown link stays text; only real refs are links', async () => {
		const html = await hoverInEditor(path, '"blockId":"b1"', 'b1');
		const commands = linkTargets(html).filter((target) => target.includes('command:'));
		assert.deepEqual(commands, ['t1', 't2', 't3'].map((ref) => ourLink('piCondense.recoverOutput', path, ref)), html);
		assert.ok(html.includes('t4]('), `the hostile ref is shown as text: ${html.slice(0, 2000)}`);
		assert.ok(!commands.some((target) => target.includes('passwd')), HOSTILE_CHAIN_REF);
		assert.deepEqual(imageSources(html), [], 'no image in the hover');
		await vscode.commands.executeCommand('editor.action.hideHover');
	});

	it('the summary and chain tooltips of Pruned Calls show no image', async () => {
		const api = await activeApi();
		await vscode.commands.executeCommand('piCondense.selectSession', path);
		await waitUntil(() => api.controller.selected === path && api.prunedTree.rootNodes.length > 0, 'the hostile session shown');
		await vscode.commands.executeCommand('piCondense.prunedCalls.focus');
		const summary = api.prunedTree.rootNodes.find((node) => node.data.kind === 'summary' && node.data.entryId === '9ac0fe7b');
		const chains = api.prunedTree.rootNodes.find((node) => node.data.kind === 'group' && node.data.label === 'Compressed chains');
		const chain = (chains ? await api.prunedTree.getChildren(chains) : []).find((node) => node.data.kind === 'chain' && node.data.blockId === 'b1');
		assert.ok(summary && chain);
		for (const [node, shown] of [[summary, 'read src/app.js'], [chain, 'Fused sub-task summary']] as [PrunedTreeNode, string][]) {
			await api.prunedTree.view.reveal(node, { select: true, focus: true });
			await ui({ action: 'hover', selector: `.monaco-list-row[aria-label*=${JSON.stringify(node.data.label)}]` });
			const html = await shownHover(shown);
			assert.deepEqual(imageSources(html), [], `no image in the tooltip of ${node.data.label}`);
			await ui({ action: 'hover', selector: '.part.statusbar' });
		}
	});

	it('Open Summary as Markdown renders the summary and the chain without their images', async () => {
		const api = await activeApi();
		const summary = api.prunedTree.rootNodes.find((node) => node.data.kind === 'summary' && node.data.entryId === '9ac0fe7b');
		const chains = api.prunedTree.rootNodes.find((node) => node.data.label === 'Compressed chains');
		const chain = (chains ? await api.prunedTree.getChildren(chains) : []).find((node) => node.data.kind === 'chain' && node.data.blockId === 'b1');
		assert.ok(summary && chain);
		for (const [node, shown] of [[summary, 'read src/app.js'], [chain, 'Fused sub-task summary']] as [PrunedTreeNode, string][]) {
			const uri = await vscode.commands.executeCommand<string>('piCondense.openSummary', node);
			const text = (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri))).getText();
			assert.ok(text.includes(shown), text);
			const preview = await ui({ action: 'html', selector: `.markdown-body:has-text(${JSON.stringify(shown)})` }) ?? '';
			assert.ok(preview.includes('escaped backslash'), `the preview shows the text: ${preview.slice(0, 2000)}`);
			assert.deepEqual(imageSources(preview).filter((tag) => tag.includes('127.0.0.1')), [], 'no image in the preview');
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		}
	});


	it('a session whose header id climbs out of its folder is shown, but its blobs are neither read nor opened', async () => {
		const api = await activeApi();
		const climbing = join(dirname(fixtures().basic.path), '2026-12-05T11-00-00-000Z_climbing.jsonl');
		const text = readFileSync(fixtures().basic.path, 'utf8');
		const newline = text.indexOf('\n');
		writeFileSync(climbing, JSON.stringify({ ...JSON.parse(text.slice(0, newline)) as object, id: '../../escaped' }) + text.slice(newline));
		const aMinuteAgo = new Date(Date.now() - 60_000);
		utimesSync(climbing, aMinuteAgo, aMinuteAgo);
		// Where that id leads: two folders up, a file someone else put there.
		const elsewhere = join(dirname(fixtures().basic.path), '..', '..', 'escaped-blobs');
		mkdirSync(elsewhere, { recursive: true });
		writeFileSync(join(elsewhere, 'call_p1_t2_0.txt'), 'SECRET FROM ELSEWHERE');
		try {
			await waitUntil(() => api.controller.knowsSession(climbing), 'the session listed');
			await vscode.commands.executeCommand('piCondense.selectSession', climbing);
			await waitUntil(() => api.controller.selected === climbing && api.prunedTree.rootNodes.some((node) => node.data.label === 'Spilled outputs'), 'its pruned calls shown, spilled output included');
			assert.equal(await vscode.commands.executeCommand('piCondense.openBlob', { sessionPath: climbing, ref: 'call_p1_t2_0' }), undefined);
			const recovered = await api.controller.recover(climbing, ['call_p1_t2_0']);
			assert.ok(!recovered.includes('SECRET FROM ELSEWHERE'), 'the file the id leads to is not read');
			const refusal = `${climbing}: its header id "../../escaped" is not a Pi session id (a UUID), so its spilled outputs are neither read nor written.`;
			await waitUntil(() => logText(api.logUri.fsPath).includes(`Open Spilled Output File: ${refusal}`), 'Open Spilled Output File says why, naming the file');
			assert.ok(logText(api.logUri.fsPath).includes(`[warning] ${refusal}`), 'the refused read is logged');
		} finally {
			rmSync(elsewhere, { recursive: true, force: true });
			unlinkSync(climbing);
			await waitUntil(() => !api.controller.knowsSession(climbing), 'the session unlisted');
		}
	});
});

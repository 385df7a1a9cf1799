/**
 * Annotations in real VS Code: an open Pi session file written by real Pi + pi-condense 2.0.0 gets,
 * at the end of its entries' lines, their tokens, the refs a flush summarized them as, the chains
 * that dropped them, spilled outputs and what each chain dropped; only the lines on screen are
 * computed (also after a scroll, on a session of a thousand lines); a change to the session file
 * (Pi's context_edit appended) shows at once; `piCondense.annotations.enabled` turns them off.
 */
import assert from 'node:assert/strict';
import { appendFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/host/extensionApi';
import { SessionBuilder } from '../support/sessionBuilder';
import { activeApi, fixtures, waitUntil } from './helpers';

function shownLines(api: ExtensionApi, path: string): Map<number, string> {
	return new Map((api.annotations.shownFor(path)?.lines ?? []).map(({ line, text }) => [line, text]));
}

async function showAtTop(path: string, line: number): Promise<vscode.TextEditor> {
	const editor = await vscode.window.showTextDocument(vscode.Uri.file(path), { preview: false });
	const at = new vscode.Position(line - 1, 0);
	editor.selection = new vscode.Selection(at, at);
	editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.AtTop);
	return editor;
}

function visibleLines(editor: vscode.TextEditor): { from: number; to: number } {
	return { from: (editor.visibleRanges[0]?.start.line ?? 0) + 1, to: (editor.visibleRanges.at(-1)?.end.line ?? 0) + 1 };
}

describe('annotations in a session file', () => {
	let api: ExtensionApi;

	before(async () => {
		api = await activeApi();
		const { basic, largeBulk } = fixtures();
		await waitUntil(() => api.controller.knowsSession(basic.path) && api.controller.knowsSession(largeBulk.path), 'the sessions listed');
	});

	afterEach(async () => {
		await vscode.workspace.getConfiguration('piCondense').update('annotations.enabled', undefined, vscode.ConfigurationTarget.Global);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('say each entry\'s tokens, the ref it was summarized as, the chain that dropped it, and what a chain dropped', async () => {
		const { basic } = fixtures();
		await showAtTop(basic.path, 1);
		await waitUntil(() => shownLines(api, basic.path).has(7), 'the top of the basic session annotated');
		let lines = shownLines(api, basic.path);
		assert.equal(lines.get(4), '34 tokens');
		assert.equal(lines.get(5), '160 tokens · dropped by chain b1');
		assert.equal(lines.get(7), '48 tokens · summarized as t2 · dropped by chain b1');
		assert.equal(lines.get(11), '123 tokens · summary of t1–t2 · dropped by chain b1');
		assert.equal(lines.get(1), undefined, 'the header gives the model nothing');
		assert.equal(lines.get(2), undefined, 'nor does a model change');

		const editor = await showAtTop(basic.path, 25);
		await waitUntil(() => shownLines(api, basic.path).has(36), 'the lines scrolled to annotated', 10_000);
		lines = shownLines(api, basic.path);
		assert.equal(lines.get(25), '1.4k tokens · spilled · dropped by chain b2');
		assert.equal(lines.get(31), 'chain b1: 4 calls dropped (t1–t4)');
		assert.equal(lines.get(36), '105 tokens · same output as t4');
		const { from, to } = visibleLines(editor);
		assert.ok([...lines.keys()].every((line) => line >= from && line <= to), `only visible lines (${from}–${to}) are annotated: ${[...lines.keys()].join(',')}`);
	});

	it('computes only the lines on screen, and the new ones after a scroll', async () => {
		const { largeBulk } = fixtures();
		const document = await vscode.workspace.openTextDocument(vscode.Uri.file(largeBulk.path));
		assert.ok(document.lineCount > 1000, `large-bulk has ${document.lineCount} lines`);
		const computedBefore = api.annotations.computed.length;
		await showAtTop(largeBulk.path, 1);
		await waitUntil(() => (api.annotations.shownFor(largeBulk.path)?.lines.length ?? 0) > 0, 'the top of large-bulk annotated');
		const top = api.annotations.computed.slice(computedBefore).filter((computed) => computed.path === largeBulk.path);
		assert.ok(top.length > 0);
		for (const { range } of top) {
			assert.ok(range.to - range.from < 200, `a screen of lines, not the file's ${document.lineCount}: ${range.from}–${range.to}`);
		}

		const scrolledFrom = api.annotations.computed.length;
		const editor = await showAtTop(largeBulk.path, 900);
		await waitUntil(() => (api.annotations.shownFor(largeBulk.path)?.lines ?? []).some(({ line }) => line >= 900), 'line 900 onwards annotated', 10_000);
		const { from, to } = visibleLines(editor);
		const scrolled = api.annotations.computed.slice(scrolledFrom).filter((computed) => computed.path === largeBulk.path);
		assert.ok(scrolled.length > 0);
		for (const { range } of scrolled) {
			assert.ok(range.from > 800 && range.to - range.from < 200, `after the scroll, lines near 900 only: ${range.from}–${range.to}`);
		}
		const shown = api.annotations.shownFor(largeBulk.path)?.lines ?? [];
		assert.ok(shown.every(({ line }) => line >= from && line <= to), `only lines ${from}–${to} annotated`);
		assert.ok(shown.some(({ text }) => /^\d[\d.]*k? tokens/.test(text)), JSON.stringify(shown.slice(0, 5)));
	});

	it('follow the session file as Pi appends to it', async () => {
		const path = join(dirname(fixtures().basic.path), '2026-12-03T11-00-00-000Z_annotations-follow.jsonl');
		const builder = new SessionBuilder({ id: 'annotations-follow', cwd: fixtures().workspace, timestamp: new Date().toISOString() });
		const prompt = builder.user('Count the lines of every file in src.');
		builder.assistant([{ type: 'text', text: 'Counted.' }]);
		// Longer than the screen: the appended line changes no visible range, only the store's model tells.
		for (let turn = 0; turn < 60; turn++) {
			builder.user(`And file ${turn}?`);
			builder.assistant([{ type: 'text', text: `${turn * 10} lines.` }]);
		}
		writeFileSync(path, builder.text());
		const aMinuteAgo = new Date(Date.now() - 60_000);
		utimesSync(path, aMinuteAgo, aMinuteAgo);
		try {
			await waitUntil(() => api.controller.knowsSession(path), 'the session listed');
			await showAtTop(path, 1);
			await waitUntil(() => shownLines(api, path).has(2), 'the new session annotated');
			assert.match(shownLines(api, path).get(2) ?? '', /^\d+ tokens$/);
			// Pi 1.6 edits the prompt out of what it sends: the prompt's line says so.
			appendFileSync(path, `${JSON.stringify({ type: 'context_edit', id: 'e0d17000', parentId: builder.leafId, timestamp: new Date().toISOString(), targetId: prompt, replacement: null })}\n`);
			await waitUntil(() => shownLines(api, path).get(2) === 'left out by Pi (line 124)', 'the edit shown on the prompt\'s line', 15_000);
		} finally {
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
			unlinkSync(path);
		}
	});

	it('hide while the file has unsaved changes (its lines may have moved), and come back when they are reverted', async () => {
		const { basic } = fixtures();
		const editor = await showAtTop(basic.path, 1);
		await waitUntil(() => shownLines(api, basic.path).has(7), 'annotated');
		try {
			assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(2, 0), '\n')));
			await waitUntil(() => api.annotations.shownFor(basic.path) === undefined, 'no annotations while edited');
		} finally {
			await vscode.commands.executeCommand('workbench.action.files.revert');
		}
		await waitUntil(() => shownLines(api, basic.path).get(7) === '48 tokens · summarized as t2 · dropped by chain b1', 'annotated again once reverted');
	});

	it('piCondense.annotations.enabled turns them off, and on again', async () => {
		const { basic } = fixtures();
		await showAtTop(basic.path, 1);
		await waitUntil(() => shownLines(api, basic.path).has(7), 'annotated');
		await vscode.workspace.getConfiguration('piCondense').update('annotations.enabled', false, vscode.ConfigurationTarget.Global);
		await waitUntil(() => api.annotations.shownFor(basic.path) === undefined, 'no annotations once turned off');
		const computed = api.annotations.computed.length;
		await vscode.commands.executeCommand('editorScroll', { to: 'down', by: 'page' });
		await new Promise((resolve) => setTimeout(resolve, 300));
		assert.equal(api.annotations.shownFor(basic.path), undefined, 'a scroll brings none back');
		assert.equal(api.annotations.computed.length, computed, 'and computes nothing');
		await vscode.workspace.getConfiguration('piCondense').update('annotations.enabled', true, vscode.ConfigurationTarget.Global);
		await waitUntil(() => shownLines(api, basic.path).size > 0, 'annotated again');
	});
});

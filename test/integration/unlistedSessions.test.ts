/**
 * Only the sessions Pi Condense lists are read: a `pi-condense:` document or a Recover / Reveal /
 * Open Spilled Output command whose `sessionPath` names any other file (a FIFO that would block a
 * read for ever, a session copied elsewhere) is refused with a message, and nothing is read.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, copyFileSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activeApi, fixtures, waitUntil } from './helpers';

/** Resolves with the value, or rejects when it takes longer than `ms` (a read blocked on a FIFO). */
function within<T>(ms: number, work: Thenable<T>, what: string): Promise<T> {
	return Promise.race([Promise.resolve(work), new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms))]);
}

describe('sessions Pi Condense does not list', function () {
	this.timeout(60_000);
	let dir = '';
	let fifo = '';
	let copy = '';

	before(async () => {
		const api = await activeApi();
		await waitUntil(() => api.controller.knowsSession(fixtures().basic.path), 'the basic session listed');
		dir = mkdtempSync(join(tmpdir(), 'pi-condense-unlisted-'));
		fifo = join(dir, 'blocks.jsonl');
		execFileSync('mkfifo', [fifo]);
		copy = join(dir, 'copy.jsonl');
		copyFileSync(fixtures().basic.path, copy);
	});

	after(() => {
		// Releases a read that the code under test might have left blocked on the FIFO.
		try {
			closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
		} catch {
			// no reader: nothing was blocked
		}
		rmSync(dir, { recursive: true, force: true });
	});

	it('a pi-condense: document of another file says it is not listed, without reading it', async () => {
		for (const path of [fifo, copy]) {
			const uri = vscode.Uri.from({ scheme: 'pi-condense', path: '/recovered/t3.md', query: new URLSearchParams({ session: path }).toString() });
			const document = await within(5000, vscode.workspace.openTextDocument(uri), `the document of ${path}`);
			assert.equal(document.getText(), `${path} is not one of the Pi sessions Pi Condense lists, so it is not read.`);
		}
		const summary = vscode.Uri.from({ scheme: 'pi-condense', path: '/summary/x.md', query: new URLSearchParams({ session: copy }).toString() });
		assert.match((await vscode.workspace.openTextDocument(summary)).getText(), /is not one of the Pi sessions Pi Condense lists/);
	});

	it('Recover, Reveal and Open Spilled Output refuse a sessionPath that is not listed', async () => {
		const api = await activeApi();
		const selected = api.controller.selected;
		for (const path of [fifo, copy]) {
			const recovered = await within(5000, vscode.commands.executeCommand<string>('piCondense.recoverOutput', { sessionPath: path, ref: 't3' }), 'Recover');
			assert.match((await vscode.workspace.openTextDocument(vscode.Uri.parse(recovered))).getText(), /is not one of the Pi sessions Pi Condense lists/);
			assert.equal(await within(5000, vscode.commands.executeCommand('piCondense.revealRef', { sessionPath: path, ref: 't3' }), 'Reveal'), false);
			assert.equal(await within(5000, vscode.commands.executeCommand('piCondense.openBlob', { sessionPath: path, ref: 't3' }), 'Open Spilled Output'), undefined);
			assert.equal(api.controller.selected, selected, 'the selection did not move');
			await assert.rejects(api.controller.openSession(path), /is not one of the Pi sessions Pi Condense lists/);
		}
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});
});

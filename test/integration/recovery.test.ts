/**
 * Recovery in real VS Code: the hover over `t3` (and over a `bN` and a raw tool-call id) in the Pi
 * session file shows the head of the raw output with command links; the `pi-condense:` document of a
 * ref holds exactly what context_tree_query returns for it (the engine's recoverOutputs), also for a
 * spilled output read back from its blob file.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { recoverOutputs } from '../../src/engine/condense';
import { engineView } from './engineExpectations';
import { activeApi, fixtures, waitUntil } from './helpers';
import { escapeMarkdown } from '../../src/engine/views/safeText';

function hoverText(hovers: readonly vscode.Hover[]): string {
	return hovers.flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : content.value))).join('\n');
}

/** Hovers over `word` where it first appears inside `context`. */
async function hoversAt(uri: vscode.Uri, context: string, word = context): Promise<string> {
	const document = await vscode.workspace.openTextDocument(uri);
	const offset = document.getText().indexOf(context);
	assert.ok(offset >= 0, `${context} is in ${uri.toString()}`);
	const position = document.positionAt(offset + context.indexOf(word) + 1);
	return hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position));
}

describe('recovering raw outputs', () => {
	before(async () => {
		const api = await activeApi();
		await waitUntil(() => api.controller.knowsSession(fixtures().basic.path), 'the basic session listed');
	});

	it('hovering t3 in the session file shows the head of its raw output and links to open it', async () => {
		const { basic } = fixtures();
		const uri = vscode.Uri.file(basic.path);
		await vscode.window.showTextDocument(uri);
		const text = await hoversAt(uri, '`t3`', 't3');
		const record = engineView(basic.path).state.refs.get('t3')?.record;
		assert.ok(record);
		assert.ok(text.includes(record.resultText.split('\n')[0]!), `the hover shows the first line of t3's output:\n${text}`);
		assert.ok(text.includes(`**t3** · ${escapeMarkdown('read(path="src/app.js")')}`), text);
		assert.match(text, /command:piCondense\.recoverOutput\?/);
		assert.match(text, /command:piCondense\.revealRef\?/);
	});

	it('hovering b1 lists its refs; hovering an unknown word shows nothing of ours', async () => {
		const { basic } = fixtures();
		const uri = vscode.Uri.file(basic.path);
		const chain = await hoversAt(uri, '"blockId":"b1"', 'b1');
		assert.match(chain, /\*\*b1\*\* · compressed chain/);
		assert.match(chain, /\[t4\]\(command:piCondense\.recoverOutput/);
		const unrelated = await hoversAt(uri, '"thinking_level_change"', 'thinking_level_change');
		assert.ok(!unrelated.includes('command:piCondense'), 'no hover of ours over an ordinary word');
	});

	it('the pi-condense: document of a ref is exactly what context_tree_query returns', async () => {
		const api = await activeApi();
		const { basic } = fixtures();
		const expected = engineView(basic.path);
		for (const ref of ['t3', 'call_p1_t2_0', 'call_p2_t0_0']) {
			const uri = await vscode.commands.executeCommand<string>('piCondense.recoverOutput', { sessionPath: basic.path, ref });
			const document = vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === uri);
			assert.ok(document, `${ref} opened as ${uri}`);
			assert.equal(document.uri.scheme, 'pi-condense');
			assert.equal(document.getText(), (await recoverOutputs(expected.state, [ref], expected.blobs)).text);
			assert.equal(vscode.window.activeTextEditor?.document, document, 'it is shown');
		}
		const spilled = vscode.workspace.textDocuments.find((candidate) => candidate.uri.path.endsWith('/call_p1_t2_0.md'));
		assert.ok(spilled && spilled.getText().length > 5000, 'the spilled output is read back in full from its blob');
		assert.equal(await api.controller.recover(basic.path, ['t999']), '## toolRef: t999\n(not found in index — may not have been summarized yet)');
	});

	it('hovers work inside our own documents too', async () => {
		const { basic } = fixtures();
		const uri = vscode.Uri.parse(await vscode.commands.executeCommand<string>('piCondense.recoverOutput', { sessionPath: basic.path, ref: 't3' }));
		const text = await hoversAt(uri, 'toolRef: t3', 't3');
		assert.match(text, /\*\*t3\*\*/);
	});
});

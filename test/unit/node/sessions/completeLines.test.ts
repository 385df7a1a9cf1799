/**
 * Complete lines read piece by piece from a real file: every size of piece, lines longer than a
 * piece, a half-written last line left for later, a start offset, and a file that shrank.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSessionSteps } from '../../../../src/engine/session';
import { scanCompleteLines } from '../../../../src/node/sessions/completeLines';
import { readSessionModel } from '../../../../src/node/store/readSessionModel';
import { runSteps } from '../../../../src/engine/steps';
import { testWork } from '../../../support/testWork';

describe('scanCompleteLines', () => {
	let dir = '';
	before(() => {
		dir = mkdtempSync(join(tmpdir(), 'pi-condense-lines-'));
	});
	after(() => rmSync(dir, { recursive: true, force: true }));

	/** The pieces (copied: each is a view of a reused buffer) and the offset returned. */
	async function scan(text: string, chunkBytes: number, offset = 0, size?: number): Promise<{ pieces: string[]; consumed: number }> {
		const path = join(dir, 'lines.jsonl');
		writeFileSync(path, text);
		const handle = await open(path, 'r');
		try {
			const pieces: string[] = [];
			const consumed = await scanCompleteLines(handle, offset, size ?? Buffer.byteLength(text), (piece) => pieces.push(piece.toString('utf8')), chunkBytes);
			return { pieces, consumed };
		} finally {
			await handle.close();
		}
	}

	const lines = ['{"a":1}', `{"long":"${'é'.repeat(300)}"}`, '{"b":"ü"}', '', '{"c":3}'];
	const text = `${lines.join('\n')}\n{"half":`;
	const complete = `${lines.join('\n')}\n`;

	it('delivers every complete line once, in order, in pieces ending with a newline, whatever the piece size', async () => {
		for (const chunk of [1, 2, 7, 64, 100, 1024, 1 << 20]) {
			const { pieces, consumed } = await scan(text, chunk);
			assert.equal(pieces.join(''), complete, `piece size ${chunk}`);
			assert.ok(pieces.every((piece) => piece.endsWith('\n')), `piece size ${chunk}`);
			assert.equal(consumed, Buffer.byteLength(complete), `piece size ${chunk}`);
		}
	});

	it('starts at an offset, and stops at a file shorter than the size it was given', async () => {
		const offset = Buffer.byteLength(`${lines[0] ?? ''}\n`);
		const from = await scan(text, 16, offset);
		assert.equal(from.pieces.join(''), complete.slice((lines[0] ?? '').length + 1));
		assert.equal(from.consumed, Buffer.byteLength(complete));
		const shrunk = await scan(complete, 16, 0, Buffer.byteLength(complete) + 100);
		assert.equal(shrunk.pieces.join(''), complete);
	});
});

describe('readSessionModel in pieces', () => {
	it('reads a byte-order mark at the start of a piece as text, as a whole read (and Pi) do', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'pi-condense-bom-'));
		try {
			const path = join(dir, 'session.jsonl');
			const header = '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}\n';
			const entry = (id: string, parent: string | null): string => `${JSON.stringify({ type: 'message', id, parentId: parent, timestamp: '2026-01-01T00:00:01.000Z', message: { role: 'user', content: id, timestamp: 1 } })}\n`;
			const text = `${header}${entry('a', null)}\uFEFF${entry('b', 'a')}${entry('c', 'b')}`;
			writeFileSync(path, text);
			const whole = runSteps(parseSessionSteps(text));
			assert.ok(whole.diagnostics.length > 0, 'the marked line is a problem of the file');
			// A piece size that starts a piece exactly at the marked line.
			const pieceBytes = Buffer.byteLength(`${header}${entry('a', null)}`);
			const { model } = await readSessionModel(testWork, path, pieceBytes);
			assert.deepEqual(model.diagnostics, whole.diagnostics);
			assert.deepEqual(model.entries, whole.entries);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

/**
 * Lines read one piece ahead (the session index's reads), from real files: the same lines as
 * `scanCompleteLines` whatever the piece size, the next read in flight while a piece is worked on,
 * none left in flight when the scan ends or fails, buffers kept from file to file, and which reads
 * go ahead (`readAhead`) and which are waited for at once (`read`).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanCompleteLines, type ReadableFile } from '../../../../src/node/sessions/completeLines';
import { ReadBuffers, scanLinesReadingAhead, type ReadAheadFile } from '../../../../src/node/sessions/readAheadLines';

/** A file whose reads finish a turn later, counting those in flight. */
class SlowFile implements ReadableFile {
	inFlight = 0;
	mostInFlight = 0;
	/** Pieces worked on while a read was in flight. */
	piecesWhileReading = 0;

	constructor(private readonly handle: FileHandle) {}

	async read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ readonly bytesRead: number }> {
		this.inFlight++;
		this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
		try {
			await new Promise((resolve) => setImmediate(resolve));
			return await this.handle.read(buffer, offset, length, position);
		} finally {
			this.inFlight--;
		}
	}
}

describe('scanLinesReadingAhead', () => {
	let dir = '';
	before(() => {
		dir = mkdtempSync(join(tmpdir(), 'pi-condense-read-ahead-'));
	});
	after(() => rmSync(dir, { recursive: true, force: true }));

	async function withFile<T>(text: string, use: (file: SlowFile, handle: FileHandle) => Promise<T>): Promise<T> {
		const path = join(dir, 'lines.jsonl');
		writeFileSync(path, text);
		const handle = await open(path, 'r');
		try {
			return await use(new SlowFile(handle), handle);
		} finally {
			await handle.close();
		}
	}

	/** Pieces (copied) and the offset returned, by both scans. */
	async function bothScans(text: string, chunkBytes: number, offset = 0, size = Buffer.byteLength(text), buffers?: ReadBuffers): Promise<{ ahead: string[]; whole: string[]; consumed: number[]; file: SlowFile }> {
		return withFile(text, async (file, handle) => {
			const ahead: string[] = [];
			const whole: string[] = [];
			const aheadConsumed = await scanLinesReadingAhead(file, offset, size, async (piece) => {
				file.piecesWhileReading += file.inFlight > 0 ? 1 : 0;
				ahead.push(piece.toString('utf8'));
				await new Promise((resolve) => setImmediate(resolve));
			}, { chunkBytes, buffers });
			const wholeConsumed = await scanCompleteLines(handle, offset, size, (piece) => whole.push(piece.toString('utf8')), chunkBytes);
			return { ahead, whole, consumed: [aheadConsumed, wholeConsumed], file };
		});
	}

	const lines = ['{"a":1}', `{"long":"${'é'.repeat(300)}"}`, '{"b":"ü"}', '', '{"c":3}'];
	const text = `${lines.join('\n')}\n{"half":`;

	it('delivers the complete lines scanCompleteLines delivers, in pieces ending with a newline, whatever the piece size', async () => {
		for (const chunk of [1, 2, 7, 64, 100, 1024, 1 << 20]) {
			for (const offset of [0, Buffer.byteLength(`${lines[0] ?? ''}\n`)]) {
				const { ahead, whole, consumed } = await bothScans(text, chunk, offset);
				assert.equal(ahead.join(''), whole.join(''), `piece size ${chunk}, offset ${offset}`);
				assert.ok(ahead.every((piece) => piece.endsWith('\n')), `piece size ${chunk}`);
				assert.equal(consumed[0], consumed[1], `piece size ${chunk}`);
			}
		}
		const shrunk = await bothScans(text, 16, 0, Buffer.byteLength(text) + 100);
		assert.equal(shrunk.ahead.join(''), shrunk.whole.join(''));
		assert.equal(shrunk.consumed[0], shrunk.consumed[1]);
	});

	it('reads the next piece while one is worked on, one read at a time', async () => {
		const { file } = await bothScans(text, 16);
		assert.ok(file.piecesWhileReading > 0, 'the next piece was being read while one was worked on');
		assert.equal(file.mostInFlight, 1);
	});

	it('leaves no read in flight when a piece fails or the scan is stopped', async () => {
		await withFile(text, async (file) => {
			await assert.rejects(scanLinesReadingAhead(file, 0, Buffer.byteLength(text), () => {
				throw new Error('piece failed');
			}, { chunkBytes: 8 }), /piece failed/);
			assert.equal(file.inFlight, 0);
			const controller = new AbortController();
			await assert.rejects(scanLinesReadingAhead(file, 0, Buffer.byteLength(text), () => controller.abort(new Error('stopped')), { chunkBytes: 8, signal: controller.signal }), /stopped/);
			assert.equal(file.inFlight, 0);
		});
	});

	it('reads file after file through the same two buffers, one grown for a long line, without stale bytes', async () => {
		const given: Buffer[] = [];
		const taken: Buffer[] = [];
		const buffers = new class extends ReadBuffers {
			override take(bytes: number): Buffer {
				const buffer = super.take(bytes);
				taken.push(buffer);
				return buffer;
			}

			override giveBack(buffer: Buffer): void {
				given.push(buffer);
				super.giveBack(buffer);
			}
		}();
		const longLine = `{"long":"${'x'.repeat(1000)}"}`; // longer than any line of `text`
		const files = [`${longLine}\n{"a":1}\n`, text, `${lines.join('\n')}\n`, '{"z":26}\n'];
		for (const file of files) {
			const { ahead, whole, consumed } = await bothScans(file, 16, 0, undefined, buffers);
			assert.equal(ahead.join(''), whole.join(''), file);
			assert.equal(consumed[0], consumed[1], file);
		}
		assert.equal(taken.length, 2 * files.length);
		const first = new Set(given.slice(0, 2));
		assert.ok(taken.slice(2).every((buffer) => first.has(buffer)), 'every later file is read through the buffers the first one gave back');
		assert.ok([...first].some((buffer) => buffer.length > longLine.length), 'one of them grown for the long line');
	});

	it('reads ahead through readAhead, and waits through read only for what it needs at once (the first piece, the rest of a long line)', async () => {
		const longLine = `{"long":"${'x'.repeat(40)}"}`;
		const twoKinds = `${longLine}\n{"a":1}\n{"b":2}\n{"c":3}\n`;
		await withFile(twoKinds, async (_file, handle) => {
			const reads: { kind: 'read' | 'readAhead'; position: number; duringPiece: boolean }[] = [];
			let inPiece = false;
			const file: ReadAheadFile = {
				read: (buffer, offset, length, position) => {
					reads.push({ kind: 'read', position, duringPiece: inPiece });
					return handle.read(buffer, offset, length, position);
				},
				readAhead: (buffer, offset, length, position) => {
					reads.push({ kind: 'readAhead', position, duringPiece: inPiece });
					return handle.read(buffer, offset, length, position);
				},
			};
			const pieces: string[] = [];
			await scanLinesReadingAhead(file, 0, Buffer.byteLength(twoKinds), async (piece) => {
				inPiece = true;
				pieces.push(piece.toString('utf8'));
				await new Promise((resolve) => setImmediate(resolve));
				inPiece = false;
			}, { chunkBytes: 16 });
			assert.equal(pieces.join(''), twoKinds);
			const firstAhead = reads.findIndex((read) => read.kind === 'readAhead');
			assert.ok(firstAhead > 1, 'the first piece and the rest of the long line (several reads) are waited for at once');
			assert.ok(reads.slice(0, firstAhead).every((read) => read.kind === 'read'));
			assert.ok(reads.slice(firstAhead).every((read) => read.kind === 'readAhead'), 'every later piece is read ahead');
			assert.ok(reads.every((read) => !read.duringPiece), 'each read starts before the piece it overlaps is worked on');
		});
	});
});

/**
 * The session writer against a file that moves under it, on real files in temporary directories:
 * lines Pi appended since the model was read are caught up with (and re-checked), a rewritten file
 * is refused, and another writer appending between or during our lines stops the write without a
 * repair.
 */
import assert from 'node:assert/strict';
import { SLICE_MS } from '../../../../src/work';
import { appendFileSync, writeFileSync } from 'node:fs';
import { parseSessionSteps } from '../../../../src/engine/session';
import type { EntryDraft } from '../../../../src/engine/write';
import { readSessionFileState, writeEntriesToSession } from '../../../../src/node/write';
import { bulkLinesAfter, countingTurns } from '../../../support/bulkAppend';
import { appendLikePi, jsonLines, makeOld, read, TempDir } from '../../../support/tempSession';
import { runSteps } from '../../../../src/engine/steps';
import { drafts, expectRefused, expectWritten, idleSession, options } from '../../../support/writerTestKit';
import { testWork } from '../../../support/testWork';

describe('write: session writer, while the file moves', () => {
	let dir: TempDir;
	beforeEach(() => {
		dir = new TempDir();
	});
	afterEach(() => {
		dir.remove();
	});

	it('catches up with lines appended after the model was read, and chains from the new last entry', async () => {
		const builder = idleSession();
		const path = dir.file('grew.jsonl', builder.text());
		const read0 = await readSessionFileState(testWork, path);
		assert.equal(read0.kind, 'ok');
		const base = read0.kind === 'ok' ? read0.state : undefined;
		appendLikePi(path, { type: 'message', id: 'pi000010', parentId: builder.leafId, timestamp: '2026-02-01T00:00:00.000Z', message: { role: 'user', content: 'more', timestamp: 1 } });
		appendLikePi(path, { type: 'message', id: 'pi000011', parentId: 'pi000010', timestamp: '2026-02-01T00:00:01.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'sure' }], api: 'a', provider: 'p', model: 'm', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'stop', timestamp: 2 } });
		makeOld(path);
		const result = await writeEntriesToSession(testWork, path, drafts, { ...options, base });
		expectWritten(result);
		assert.equal(result.linesCaughtUp, 2);
		assert.equal(result.entries[0]?.entry.parentId, 'pi000011');
		assert.deepEqual(result.session?.model.entries, runSteps(parseSessionSteps(read(path))).entries);
		assert.equal(result.session?.consumedBytes, Buffer.byteLength(read(path)));
	});

	it('catches up with megabytes appended since its base, and reads a file cold, letting the event loop turn', async () => {
		const builder = idleSession();
		const path = dir.file('bulk.jsonl', builder.text());
		const base = await readSessionFileState(testWork, path);
		assert.equal(base.kind, 'ok');
		const added = bulkLinesAfter(builder.leafId);
		appendFileSync(path, added);
		const cold = runSteps(parseSessionSteps(read(path)));
		const caughtUp = await countingTurns(() => readSessionFileState(testWork, path, base.kind === 'ok' ? base.state : undefined));
		const whole = await countingTurns(() => readSessionFileState(testWork, path));
		for (const [how, { result, turns }] of [['catch-up', caughtUp], ['cold read', whole]] as const) {
			assert.ok(turns > 2, `${how}: the event loop turned ${turns} times`);
			assert.equal(result.kind, 'ok', how);
			if (result.kind === 'ok') {
				assert.deepEqual(result.state.model.entries, cold.entries, how);
				assert.deepEqual(result.state.model.diagnostics, cold.diagnostics, how);
				assert.equal(result.state.model.leafId, cold.leafId, how);
				assert.equal(result.state.consumedBytes, Buffer.byteLength(read(path)), how);
			}
		}
		assert.equal(caughtUp.result.kind === 'ok' && caughtUp.result.state.linesCaughtUp, cold.lineCount - (base.kind === 'ok' ? base.state.model.lineCount : 0));
	});

	it('re-checks after catching up: new lines that open a tool turn block the write', async () => {
		const builder = idleSession();
		const path = dir.file('grew-open.jsonl', builder.text());
		const base = await readSessionFileState(testWork, path);
		appendLikePi(path, { type: 'message', id: 'pi000020', parentId: builder.leafId, timestamp: '2026-02-01T00:00:00.000Z', message: { role: 'assistant', content: [{ type: 'toolCall', id: 'c9', name: 'bash', arguments: {} }], api: 'a', provider: 'p', model: 'm', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'toolUse', timestamp: 2 } });
		makeOld(path);
		expectRefused(await writeEntriesToSession(testWork, path, drafts, { ...options, base: base.kind === 'ok' ? base.state : undefined }), 'open-tool-turn');
	});

	it('refuses when the file was rewritten since the model was read', async () => {
		const path = dir.file('rewritten.jsonl', idleSession().text());
		const base = await readSessionFileState(testWork, path);
		const replaced = idleSession(undefined, { id: 'another-session' }).text();
		writeFileSync(path, replaced);
		makeOld(path);
		expectRefused(await writeEntriesToSession(testWork, path, drafts, { ...options, base: base.kind === 'ok' ? base.state : undefined }), 'rewritten');
		writeFileSync(path, replaced.slice(0, 100));
		expectRefused(await writeEntriesToSession(testWork, path, drafts, { ...options, base: base.kind === 'ok' ? base.state : undefined }), 'rewritten');
		assert.equal(read(path), replaced.slice(0, 100));
	});

	it('notices a line appended at the last moment: nothing written, then retried from the new end', async () => {
		const builder = idleSession();
		const path = dir.file('race.jsonl', builder.text());
		let raced = 0;
		const raceOnce = {
			beforeLastCheck: () => {
				if (raced++ === 0) {
					appendLikePi(path, { type: 'custom', customType: 'pi-ext', id: 'pi000030', parentId: builder.leafId, timestamp: '2026-02-01T00:00:00.000Z' });
				}
			},
		};
		const refusedResult = await writeEntriesToSession(testWork, path, drafts, { ...options, hooks: raceOnce });
		expectRefused(refusedResult, 'changed');
		assert.equal(jsonLines(path).length, builder.text().split('\n').length);
		raced = 0;
		makeOld(path);
		const result = await writeEntriesToSession(testWork, path, drafts, { ...options, maxWaitMs: 100, pollMs: 10, sleep: () => Promise.resolve(), hooks: {
			beforeLastCheck: () => {
				if (raced++ === 0) {
					appendLikePi(path, { type: 'custom', customType: 'pi-ext', id: 'pi000031', parentId: 'pi000030', timestamp: '2026-02-01T00:00:01.000Z' });
				}
			},
		}, quietMs: 0 });
		expectWritten(result);
		assert.equal(result.attempts, 2);
		assert.equal(result.entries[0]?.entry.parentId, 'pi000031');
	});

	it('reports a line that landed after a foreign line (the residual race) without repairing anything', async () => {
		const path = dir.file('residual.jsonl', idleSession().text());
		const foreign = { type: 'custom', customType: 'pi-ext', id: 'pi000040', parentId: null, timestamp: '2026-02-01T00:00:00.000Z' };
		const result = await writeEntriesToSession(testWork, path, drafts, { ...options, hooks: { afterLastCheck: () => appendLikePi(path, foreign) } });
		assert.equal(result.kind, 'disturbed');
		if (result.kind !== 'disturbed') {
			return;
		}
		// The size check after line 1 sees the foreign bytes too, so line 2 is held back.
		assert.equal(result.attempted, 1);
		assert.deepEqual(result.lines.map((line) => [line.status, line.foreignLinesBefore]), [['after-foreign-lines', 1]]);
		assert.match(result.message, /line 1 of 2 \(entry [0-9a-f]{8}\) landed after 1 line\(s\) from another writer.*; line 2 was not written because another writer appended/);
		const lines = jsonLines(path);
		assert.deepEqual(lines.slice(-2).map((line) => line['id']), ['pi000040', result.entries[0]?.entry.id]);
	});

	it('stops writing when another writer appends between our lines', async () => {
		const path = dir.file('between.jsonl', idleSession().text());
		const three: EntryDraft[] = [...drafts, { type: 'custom', customType: 'context-prune-stats', data: {} }];
		const result = await writeEntriesToSession(testWork, path, three, { ...options, hooks: {
			afterLine: (index) => {
				if (index === 0) {
					appendLikePi(path, { type: 'custom', customType: 'pi-ext', id: 'pi000050', parentId: null, timestamp: '2026-02-01T00:00:00.000Z' });
				}
			},
		} });
		assert.equal(result.kind, 'disturbed');
		if (result.kind !== 'disturbed') {
			return;
		}
		assert.equal(result.attempted, 1);
		assert.deepEqual(result.lines.map((line) => line.status), ['intact']);
		assert.match(result.message, /lines 2–3 were not written because another writer appended \d+ bytes after line 1/);
		assert.deepEqual(jsonLines(path).slice(-2).map((line) => line['id']), [result.entries[0]?.entry.id, 'pi000050']);
		assert.equal(result.session?.model.leafId, 'pi000050');
	});

	it('checks the file again after each pause in writing, and stops if another writer appended during it', async () => {
		const path = dir.file('pause.jsonl', idleSession().text());
		const three: EntryDraft[] = [...drafts, { type: 'custom', customType: 'context-prune-stats', data: {} }];
		const result = await writeEntriesToSession(testWork, path, three, { ...options, hooks: {
			afterLine: (index) => {
				if (index === 0) {
					// Holds the thread past a slice, so the writer pauses before line 2; Pi appends during the pause.
					const until = performance.now() + SLICE_MS + 2;
					while (performance.now() < until) {
						// busy
					}
					setImmediate(() => appendLikePi(path, { type: 'custom', customType: 'pi-ext', id: 'pi000051', parentId: null, timestamp: '2026-02-01T00:00:00.000Z' }));
				}
			},
		} });
		assert.equal(result.kind, 'disturbed');
		if (result.kind !== 'disturbed') {
			return;
		}
		assert.equal(result.attempted, 1);
		assert.deepEqual(result.lines.map((line) => line.status), ['intact']);
		assert.match(result.message, /lines 2–3 were not written because the file changed size \(\d+ → \d+ bytes\) since it was checked: found before line 2, after a pause in writing/);
		assert.deepEqual(jsonLines(path).slice(-2).map((line) => line['id']), [result.entries[0]?.entry.id, 'pi000051']);
		assert.equal(result.session?.model.leafId, 'pi000051');
	});

});

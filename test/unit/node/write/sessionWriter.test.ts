/**
 * Write-back preconditions and the write itself, on real files in temporary directories: every
 * refusal leaves the file byte-identical; every write appends exactly our lines, chained from the
 * last entry in file order.
 */
import assert from 'node:assert/strict';
import { SLICE_MS } from '../../../../src/node/slicing/runSliced';
import { appendFileSync, writeFileSync } from 'node:fs';
import { parseSessionSteps } from '../../../../src/engine/session';
import type { EntryDraft } from '../../../../src/engine/write';
import { readSessionFileState, writeEntriesToSession, type WriteEntriesOptions, type WriteEntriesResult } from '../../../../src/node/write';
import { bulkLinesAfter, countingTurns } from '../../../support/bulkAppend';
import { SessionBuilder, text, toolCall } from '../../../support/sessionBuilder';
import { appendLikePi, jsonLines, makeOld, noPiRunning, read, TempDir } from '../../../support/tempSession';
import { runSteps } from '../../../../src/engine/steps';

const drafts: EntryDraft[] = [
	{ type: 'custom', customType: 'context-prune-index', data: { toolCalls: [] } },
	{ type: 'custom_message', customType: 'context-prune-summary', content: 'summary of t1', display: false, details: { toolNames: ['bash'] } },
];

const options: WriteEntriesOptions = { checkPiHolders: noPiRunning, maxWaitMs: 0 };

function idleSession(build?: (b: SessionBuilder) => void, header?: Record<string, unknown>): SessionBuilder {
	const builder = new SessionBuilder(header);
	builder.user('list files');
	builder.assistant([toolCall('c1', 'bash', { command: 'ls' })]);
	builder.toolResult('c1', 'bash', 'a\nb\n');
	builder.assistant([text('Two files.')]);
	build?.(builder);
	return builder;
}

function expectRefused(result: WriteEntriesResult, code: string): asserts result is Extract<WriteEntriesResult, { kind: 'refused' }> {
	assert.equal(result.kind, 'refused', JSON.stringify(result.kind === 'refused' ? result.refusal : result.kind));
	assert.equal(result.refusal.code, code, result.refusal.message);
	assert.ok(result.refusal.message.length > 0 && result.refusal.advice.length > 0);
}

function expectWritten(result: WriteEntriesResult): asserts result is Extract<WriteEntriesResult, { kind: 'written' }> {
	assert.equal(result.kind, 'written', result.kind === 'refused' ? result.refusal.message : result.kind === 'disturbed' ? result.message : '');
}

describe('write: session writer', () => {
	let dir: TempDir;
	beforeEach(() => {
		dir = new TempDir();
	});
	afterEach(() => {
		dir.remove();
	});

	it('appends exactly our lines to an idle v3 session, chained from the last entry', async () => {
		const builder = idleSession();
		const path = dir.file('s.jsonl', builder.text());
		const before = read(path);
		const result = await writeEntriesToSession(path, drafts, options);
		expectWritten(result);
		assert.equal(read(path), before + result.entries.map((entry) => entry.line).join(''));
		const [first, second] = result.entries;
		assert.equal(first?.entry.parentId, builder.leafId);
		assert.equal(second?.entry.parentId, first?.entry.id);
		assert.equal(result.session?.model.leafId, second?.entry.id);
		assert.deepEqual(result.session?.model.entries, runSteps(parseSessionSteps(read(path))).entries);
		assert.equal(result.session?.consumedBytes, Buffer.byteLength(read(path)));
		assert.deepEqual([result.attempts, result.waitedMs, result.linesCaughtUp, result.notes], [1, 0, 0, []]);
	});

	it('refuses v1 and v2 files (Pi rewrites them on open) and files from a newer Pi', async () => {
		const v1 = '{"type":"session","id":"s1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/w"}\n{"type":"message","timestamp":"2025-01-01T00:00:01.000Z","message":{"role":"user","content":"hi","timestamp":1}}\n';
		const v2 = idleSession(undefined, { version: 2 }).text();
		const v4 = idleSession(undefined, { version: 4 }).text();
		for (const [name, content] of [['v1', v1], ['v2', v2], ['v4', v4]] as const) {
			const path = dir.file(`${name}.jsonl`, content);
			expectRefused(await writeEntriesToSession(path, drafts, options), 'not-v3');
			assert.equal(read(path), content, name);
		}
	});

	it('refuses files with reading problems, or without a valid header', async () => {
		const broken = idleSession((b) => b.rawLine('{"type":"message", oops')).text() + idleSession().text().split('\n').slice(1).join('\n');
		const path = dir.file('broken.jsonl', broken);
		const result = await writeEntriesToSession(path, drafts, options);
		expectRefused(result, 'diagnostics');
		assert.match(result.refusal.message, /line 6/);
		const headerless = dir.file('headerless.jsonl', '{"type":"message","id":"a","parentId":null,"timestamp":"x","message":{"role":"user","content":"hi","timestamp":1}}\n');
		expectRefused(await writeEntriesToSession(headerless, drafts, options), 'no-header');
		assert.equal(read(path), broken);
	});

	it('refuses a file without a final newline, or waits for Pi to finish the line', async () => {
		const builder = idleSession();
		const complete = builder.text();
		const piLine = JSON.stringify({ type: 'custom', customType: 'pi-ext', data: {}, id: 'pi000001', parentId: builder.leafId, timestamp: '2026-02-01T00:00:00.000Z' });
		const path = dir.file('partial.jsonl', complete + piLine.slice(0, 30));
		expectRefused(await writeEntriesToSession(path, drafts, options), 'partial-line');
		assert.equal(read(path), complete + piLine.slice(0, 30));
		// Pi completes its line while we wait.
		const result = await writeEntriesToSession(path, drafts, {
			...options,
			maxWaitMs: 500,
			pollMs: 50,
			sleep: () => {
				appendFileSync(path, `${piLine.slice(30)}\n`);
				makeOld(path);
				return Promise.resolve();
			},
		});
		expectWritten(result);
		assert.deepEqual([result.attempts, result.waitedMs], [2, 50]);
		assert.equal(result.entries[0]?.entry.parentId, 'pi000001');
		assert.equal(read(path), `${complete}${piLine}\n${result.entries.map((entry) => entry.line).join('')}`);
	});

	it('refuses inside an open tool-call turn', async () => {
		const builder = idleSession((b) => {
			b.user('again');
			b.assistant([toolCall('c2', 'bash', {}), toolCall('c3', 'read', {})]);
			b.toolResult('c2', 'bash', 'done');
		});
		const path = dir.file('open.jsonl', builder.text());
		const result = await writeEntriesToSession(path, drafts, options);
		expectRefused(result, 'open-tool-turn');
		assert.match(result.refusal.message, /c3/);
		assert.equal(read(path), builder.text());
	});

	it('refuses a recently modified file (quiet period, injectable clock)', async () => {
		const content = idleSession().text();
		const fresh = dir.file('fresh.jsonl', content, 0);
		expectRefused(await writeEntriesToSession(fresh, drafts, options), 'recently-modified');
		const old = dir.file('old.jsonl', content, 10_000);
		expectRefused(await writeEntriesToSession(old, drafts, { ...options, quietMs: 20_000 }), 'recently-modified');
		expectRefused(await writeEntriesToSession(old, drafts, { ...options, clock: () => new Date(Date.now() - 9_000) }), 'recently-modified');
		expectWritten(await writeEntriesToSession(old, drafts, { ...options, clock: () => new Date(Date.now() + 60_000) }));
		assert.equal(read(fresh), content);
	});

	it('refuses while a (simulated) Pi process holds the session, saying what to do', async () => {
		const path = dir.file('held.jsonl', idleSession().text());
		const queries: unknown[] = [];
		const result = await writeEntriesToSession(path, drafts, {
			...options,
			checkPiHolders: (query) => {
				queries.push(query);
				return Promise.resolve({ checked: true, holders: [{ pid: 4242, command: 'pi', why: 'same-cwd' }] });
			},
		});
		expectRefused(result, 'pi-running');
		assert.match(result.refusal.message, /pid 4242/);
		assert.match(result.refusal.advice, /Close Pi on this session, or run `\/pruner now` inside Pi/);
		assert.deepEqual(queries, [{ sessionPath: path, cwd: '/work/demo' }]);
	});

	it('writes with a note when no process check is possible', async () => {
		const path = dir.file('unchecked.jsonl', idleSession().text());
		const note = 'Could not check whether Pi is running on this session: no process check on test.';
		const result = await writeEntriesToSession(path, drafts, { ...options, checkPiHolders: () => Promise.resolve({ checked: false, holders: [], note }) });
		expectWritten(result);
		assert.deepEqual(result.notes, [note]);
	});

	it('catches up with lines appended after the model was read, and chains from the new last entry', async () => {
		const builder = idleSession();
		const path = dir.file('grew.jsonl', builder.text());
		const read0 = await readSessionFileState(path);
		assert.equal(read0.kind, 'ok');
		const base = read0.kind === 'ok' ? read0.state : undefined;
		appendLikePi(path, { type: 'message', id: 'pi000010', parentId: builder.leafId, timestamp: '2026-02-01T00:00:00.000Z', message: { role: 'user', content: 'more', timestamp: 1 } });
		appendLikePi(path, { type: 'message', id: 'pi000011', parentId: 'pi000010', timestamp: '2026-02-01T00:00:01.000Z', message: { role: 'assistant', content: [{ type: 'text', text: 'sure' }], api: 'a', provider: 'p', model: 'm', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'stop', timestamp: 2 } });
		makeOld(path);
		const result = await writeEntriesToSession(path, drafts, { ...options, base });
		expectWritten(result);
		assert.equal(result.linesCaughtUp, 2);
		assert.equal(result.entries[0]?.entry.parentId, 'pi000011');
		assert.deepEqual(result.session?.model.entries, runSteps(parseSessionSteps(read(path))).entries);
		assert.equal(result.session?.consumedBytes, Buffer.byteLength(read(path)));
	});

	it('catches up with megabytes appended since its base, and reads a file cold, letting the event loop turn', async () => {
		const builder = idleSession();
		const path = dir.file('bulk.jsonl', builder.text());
		const base = await readSessionFileState(path);
		assert.equal(base.kind, 'ok');
		const added = bulkLinesAfter(builder.leafId);
		appendFileSync(path, added);
		const cold = runSteps(parseSessionSteps(read(path)));
		const caughtUp = await countingTurns(() => readSessionFileState(path, base.kind === 'ok' ? base.state : undefined));
		const whole = await countingTurns(() => readSessionFileState(path));
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
		const base = await readSessionFileState(path);
		appendLikePi(path, { type: 'message', id: 'pi000020', parentId: builder.leafId, timestamp: '2026-02-01T00:00:00.000Z', message: { role: 'assistant', content: [{ type: 'toolCall', id: 'c9', name: 'bash', arguments: {} }], api: 'a', provider: 'p', model: 'm', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'toolUse', timestamp: 2 } });
		makeOld(path);
		expectRefused(await writeEntriesToSession(path, drafts, { ...options, base: base.kind === 'ok' ? base.state : undefined }), 'open-tool-turn');
	});

	it('refuses when the file was rewritten since the model was read', async () => {
		const path = dir.file('rewritten.jsonl', idleSession().text());
		const base = await readSessionFileState(path);
		const replaced = idleSession(undefined, { id: 'another-session' }).text();
		writeFileSync(path, replaced);
		makeOld(path);
		expectRefused(await writeEntriesToSession(path, drafts, { ...options, base: base.kind === 'ok' ? base.state : undefined }), 'rewritten');
		writeFileSync(path, replaced.slice(0, 100));
		expectRefused(await writeEntriesToSession(path, drafts, { ...options, base: base.kind === 'ok' ? base.state : undefined }), 'rewritten');
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
		const refusedResult = await writeEntriesToSession(path, drafts, { ...options, hooks: raceOnce });
		expectRefused(refusedResult, 'changed');
		assert.equal(jsonLines(path).length, builder.text().split('\n').length);
		raced = 0;
		makeOld(path);
		const result = await writeEntriesToSession(path, drafts, { ...options, maxWaitMs: 100, pollMs: 10, sleep: () => Promise.resolve(), hooks: {
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
		const result = await writeEntriesToSession(path, drafts, { ...options, hooks: { afterLastCheck: () => appendLikePi(path, foreign) } });
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
		const result = await writeEntriesToSession(path, three, { ...options, hooks: {
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
		const result = await writeEntriesToSession(path, three, { ...options, hooks: {
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

	it('writes thousands of entries in slices, each line whole and in order', async () => {
		const path = dir.file('many.jsonl', idleSession().text());
		const many: EntryDraft[] = Array.from({ length: 5000 }, (_, i): EntryDraft => ({ type: 'custom', customType: 'context-prune-stats', data: { i, pad: 'x'.repeat(200) } }));
		let turns = 0;
		const counting = setInterval(() => turns++, 0);
		const result = await writeEntriesToSession(path, many, options);
		clearInterval(counting);
		expectWritten(result);
		const written = jsonLines(path).slice(-many.length);
		assert.deepEqual(written.map((line) => (line['data'] as { i: number }).i), many.map((_, i) => i));
		assert.deepEqual(written.map((line) => line['id']), result.entries.map((entry) => entry.entry.id));
		assert.ok(turns > 0, 'the event loop turned while the entries were prepared and written');
	});

	it('refuses missing files, invalid drafts and stale plans without touching anything', async () => {
		expectRefused(await writeEntriesToSession(`${dir.path}/nope.jsonl`, drafts, options), 'missing');
		const content = idleSession().text();
		const path = dir.file('s.jsonl', content);
		expectRefused(await writeEntriesToSession(path, [{ type: 'custom', customType: '' }], options), 'invalid-draft');
		const stale = await writeEntriesToSession(path, drafts, { ...options, revalidate: (model) => `planned for ${model.entries.length} entries` });
		expectRefused(stale, 'plan-stale');
		assert.equal(stale.refusal.message, 'planned for 4 entries');
		const nothing = await writeEntriesToSession(path, [], options);
		expectWritten(nothing);
		assert.equal(read(path), content);
	});

	it('never reuses an id that is already in the file', async () => {
		const builder = idleSession();
		const path = dir.file('ids.jsonl', builder.text());
		const taken = runSteps(parseSessionSteps(builder.text())).entries.map((entry) => entry.id);
		const queue = [...taken, '0badc0de'];
		const result = await writeEntriesToSession(path, [drafts[0] as EntryDraft], {
			...options,
			randomBytes: () => Buffer.from(queue.shift() as string, 'hex'),
		});
		expectWritten(result);
		assert.equal(result.entries[0]?.entry.id, '0badc0de');
	});
});

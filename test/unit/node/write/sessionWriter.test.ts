/**
 * Write-back preconditions and the write itself, on real files in temporary directories: every
 * refusal leaves the file byte-identical; every write appends exactly our lines, chained from the
 * last entry in file order.
 */
import assert from 'node:assert/strict';
import { appendFileSync, statSync } from 'node:fs';
import { parseSessionSteps } from '../../../../src/engine/session';
import type { EntryDraft } from '../../../../src/engine/write';
import { writeEntriesToSession } from '../../../../src/node/write';
import { toolCall } from '../../../support/sessionBuilder';
import { jsonLines, makeOld, read, TempDir } from '../../../support/tempSession';
import { runSteps } from '../../../../src/engine/steps';
import { drafts, expectRefused, expectWritten, idleSession, options } from '../../../support/writerTestKit';
import { testWork } from '../../../support/testWork';

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
		const result = await writeEntriesToSession(testWork, path, drafts, options);
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
			expectRefused(await writeEntriesToSession(testWork, path, drafts, options), 'not-v3');
			assert.equal(read(path), content, name);
		}
	});

	it('refuses files with reading problems, or without a valid header', async () => {
		const broken = idleSession((b) => b.rawLine('{"type":"message", oops')).text() + idleSession().text().split('\n').slice(1).join('\n');
		const path = dir.file('broken.jsonl', broken);
		const result = await writeEntriesToSession(testWork, path, drafts, options);
		expectRefused(result, 'diagnostics');
		assert.match(result.refusal.message, /line 6/);
		const headerless = dir.file('headerless.jsonl', '{"type":"message","id":"a","parentId":null,"timestamp":"x","message":{"role":"user","content":"hi","timestamp":1}}\n');
		expectRefused(await writeEntriesToSession(testWork, headerless, drafts, options), 'no-header');
		assert.equal(read(path), broken);
	});

	it('refuses a file without a final newline, or waits for Pi to finish the line', async () => {
		const builder = idleSession();
		const complete = builder.text();
		const piLine = JSON.stringify({ type: 'custom', customType: 'pi-ext', data: {}, id: 'pi000001', parentId: builder.leafId, timestamp: '2026-02-01T00:00:00.000Z' });
		const path = dir.file('partial.jsonl', complete + piLine.slice(0, 30));
		expectRefused(await writeEntriesToSession(testWork, path, drafts, options), 'partial-line');
		assert.equal(read(path), complete + piLine.slice(0, 30));
		// Pi completes its line while we wait.
		const result = await writeEntriesToSession(testWork, path, drafts, {
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
		const result = await writeEntriesToSession(testWork, path, drafts, options);
		expectRefused(result, 'open-tool-turn');
		assert.match(result.refusal.message, /c3/);
		assert.equal(read(path), builder.text());
	});

	it('refuses a recently modified file (quiet period, injectable clock)', async () => {
		const content = idleSession().text();
		// The clock is set from the file's own time: however long the machine takes between two steps, the age is the one meant.
		const aged = (path: string, ageMs: number) => ({ ...options, clock: () => new Date(statSync(path).mtimeMs + ageMs) });
		const fresh = dir.file('fresh.jsonl', content, 0);
		expectRefused(await writeEntriesToSession(testWork, fresh, drafts, aged(fresh, 0)), 'recently-modified');
		const old = dir.file('old.jsonl', content, 10_000);
		expectRefused(await writeEntriesToSession(testWork, old, drafts, { ...aged(old, 10_000), quietMs: 20_000 }), 'recently-modified');
		expectRefused(await writeEntriesToSession(testWork, old, drafts, aged(old, 1_000)), 'recently-modified');
		expectWritten(await writeEntriesToSession(testWork, old, drafts, aged(old, 70_000)));
		assert.equal(read(fresh), content);
	});

	it('refuses while a (simulated) Pi process holds the session, saying what to do', async () => {
		const path = dir.file('held.jsonl', idleSession().text());
		const queries: unknown[] = [];
		const result = await writeEntriesToSession(testWork, path, drafts, {
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
		const result = await writeEntriesToSession(testWork, path, drafts, { ...options, checkPiHolders: () => Promise.resolve({ checked: false, holders: [], note }) });
		expectWritten(result);
		assert.deepEqual(result.notes, [note]);
	});

	it('writes thousands of entries in slices, each line whole and in order', async () => {
		const path = dir.file('many.jsonl', idleSession().text());
		const many: EntryDraft[] = Array.from({ length: 5000 }, (_, i): EntryDraft => ({ type: 'custom', customType: 'context-prune-stats', data: { i, pad: 'x'.repeat(200) } }));
		let turns = 0;
		const counting = setInterval(() => turns++, 0);
		const result = await writeEntriesToSession(testWork, path, many, options);
		clearInterval(counting);
		expectWritten(result);
		const written = jsonLines(path).slice(-many.length);
		assert.deepEqual(written.map((line) => (line['data'] as { i: number }).i), many.map((_, i) => i));
		assert.deepEqual(written.map((line) => line['id']), result.entries.map((entry) => entry.entry.id));
		assert.ok(turns > 0, 'the event loop turned while the entries were prepared and written');
	});

	it('refuses missing files, invalid drafts and stale plans without touching anything', async () => {
		expectRefused(await writeEntriesToSession(testWork, `${dir.path}/nope.jsonl`, drafts, options), 'missing');
		const content = idleSession().text();
		const path = dir.file('s.jsonl', content);
		expectRefused(await writeEntriesToSession(testWork, path, [{ type: 'custom', customType: '' }], options), 'invalid-draft');
		const stale = await writeEntriesToSession(testWork, path, drafts, { ...options, revalidate: (model) => `planned for ${model.entries.length} entries` });
		expectRefused(stale, 'plan-stale');
		assert.equal(stale.refusal.message, 'planned for 4 entries');
		const nothing = await writeEntriesToSession(testWork, path, [], options);
		expectWritten(nothing);
		assert.equal(read(path), content);
	});

	it('never reuses an id that is already in the file', async () => {
		const builder = idleSession();
		const path = dir.file('ids.jsonl', builder.text());
		const taken = runSteps(parseSessionSteps(builder.text())).entries.map((entry) => entry.id);
		const queue = [...taken, '0badc0de'];
		const result = await writeEntriesToSession(testWork, path, [drafts[0] as EntryDraft], {
			...options,
			randomBytes: () => Buffer.from(queue.shift() as string, 'hex'),
		});
		expectWritten(result);
		assert.equal(result.entries[0]?.entry.id, '0badc0de');
	});
});

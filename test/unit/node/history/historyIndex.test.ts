import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join, relative as relativePath } from 'node:path';
import { EMPTY_SUMMARY, summarizeLines } from '../../../../src/engine/session/summary';
import type { HistoryIndex } from '../../../../src/node/history/historyIndex';
import { searchHistory } from '../../../../src/node/history/historySearch';
import { SCHEMA_VERSION } from '../../../../src/node/history/indexSchema';
import { openSqlite } from '../../../../src/node/history/sqlite/openSqlite';
import { realSessionsDir } from '../../../support/paths';
import { useTempDir } from '../../../support/tempDirs';
import { append, assistantLine, distDir, headerLine, openTestIndex, sessionsRoot, userLine, writeSession, type Extraction } from '../../../support/history/indexKit';

for (const extraction of ['here', 'threads'] as const satisfies readonly Extraction[]) {
	describe(`history index (on this Node's SQLite engine; extraction ${extraction === 'here' ? 'on this thread' : 'in extraction threads'})`, function () {
		this.timeout(60_000);
		const temp = useTempDir('history-index');
		let index: HistoryIndex | undefined;

		afterEach(async () => {
			await index?.close();
			index = undefined;
		});

		async function opened(path = join(temp(), 'index', 'i.sqlite')): Promise<HistoryIndex> {
			const result = await openTestIndex(path, 'auto', false, extraction);
			assert.ok(result.index, JSON.stringify(result.notices));
			index = result.index;
			return result.index;
		}

		async function stored(path: string): Promise<{ summary: unknown; consumed: number; size: number } | undefined> {
			const rows = await index?.stored([sessionsRoot(agent())]);
			const row = rows?.find((r) => r.path === path);
			return row && { summary: row.summary, consumed: row.consumed, size: row.size };
		}

		const agent = (): string => join(temp(), 'agent');

		async function refreshOutcomes(): Promise<Record<string, number>> {
			const result = await (index as HistoryIndex).refresh([sessionsRoot(agent())]);
			return Object.fromEntries(result.outcomes);
		}

		it('gives the pages freed by sessions that left it back to the file system', async () => {
			// Sessions of many distinct words: their rows and full-text entries are several MB.
			const copies = ['a', 'b', 'c'].map((name) => writeSession(agent(), 'p', `${name}.jsonl`, headerLine(name) + Array.from({ length: 1500 }, (_, i) =>
				assistantLine(`${name}${i}`, Array.from({ length: 24 }, (__, j) => `w${name}${(i * 24 + j).toString(36)}`).join(' '), 1000 + i)).join('')));
			const path = join(temp(), 'index', 'i.sqlite');
			await opened(path);
			await refreshOutcomes();
			const built = statSync(path).size;
			const pages = async (): Promise<Record<string, number>> => Object.fromEntries(await (index as HistoryIndex).db.read((db) =>
				['auto_vacuum', 'freelist_count', 'page_count'].map((name) => [name, Number(db.prepare(`PRAGMA ${name}`).get()?.[name])])));
			assert.ok((await pages())['freelist_count'] as number <= 256, JSON.stringify(await pages()));
			for (const copy of copies.slice(1)) {
				rmSync(copy);
			}
			assert.deepEqual(await refreshOutcomes(), { unchanged: 1, removed: 2 });
			const after = await pages();
			assert.equal(after['auto_vacuum'], 2, 'incremental');
			assert.ok((after['freelist_count'] as number) <= 256, JSON.stringify(after));
			assert.ok(statSync(path).size < built / 2, `${statSync(path).size} of ${built} bytes`);
		});

		it('indexes every file, then costs a stat per unchanged file; an append costs only the appended bytes', async () => {
			const a = writeSession(agent(), 'p', 'a.jsonl', headerLine('aaaa') + userLine('u1', 'first words', 1000));
			const big = join(agent(), 'sessions', '--p--', 'big.jsonl');
			copyFileSync(join(realSessionsDir, 'large-session.migrated-v3.jsonl'), big);
			await opened();
			const cold = await index?.refresh([sessionsRoot(agent())]);
			assert.deepEqual(Object.fromEntries(cold?.outcomes ?? []), { indexed: 2, removed: 0 });
			assert.equal(cold?.bytesRead, statSync(a).size + statSync(big).size);
			const warm = await index?.refresh([sessionsRoot(agent())]);
			assert.deepEqual(Object.fromEntries(warm?.outcomes ?? []), { unchanged: 2, removed: 0 });
			assert.equal(warm?.bytesRead, 0);
			const added = assistantLine('a1', 'an answer', 2000);
			append(big, added);
			const grown = await index?.refresh([sessionsRoot(agent())]);
			assert.deepEqual(Object.fromEntries(grown?.outcomes ?? []), { unchanged: 1, appended: 1, removed: 0 });
			assert.equal(grown?.bytesRead, Buffer.byteLength(added));
			assert.deepEqual((await stored(big))?.summary, summarizeLines(EMPTY_SUMMARY, readFileSync(big, 'utf8')));
		});

		it('refuses a relative session folder: one index serves every folder, so its rows are absolute paths', async () => {
			writeSession(agent(), 'p', 'a.jsonl', headerLine('aaaa') + userLine('u1', 'first words', 1000));
			await opened();
			const relative = { ...sessionsRoot(agent()), path: relativePath(process.cwd(), join(agent(), 'sessions')) };
			await assert.rejects(index?.refresh([relative]) ?? Promise.resolve(), /takes absolute session folders/);
			assert.deepEqual(await index?.stored([relative]), []);
		});

		it('a file gone from a folder this refresh does not list leaves the index too; the others of that folder stay', async () => {
			const here = writeSession(agent(), 'p', 'a.jsonl', headerLine('aaaa') + userLine('u1', 'first words', 1000));
			const otherAgent = join(temp(), 'other-agent');
			const kept = writeSession(otherAgent, 'q', 'kept.jsonl', headerLine('bbbb') + userLine('u1', 'kept words', 1000));
			const deleted = writeSession(otherAgent, 'q', 'deleted.jsonl', headerLine('cccc') + userLine('u1', 'secret words', 1000));
			await opened();
			await index?.refresh([sessionsRoot(otherAgent)]);
			rmSync(deleted);
			const result = await index?.refresh([sessionsRoot(agent())]);
			assert.deepEqual(Object.fromEntries(result?.outcomes ?? []), { indexed: 1, removed: 1 });
			assert.deepEqual((await index?.stored([sessionsRoot(otherAgent)]))?.map((row) => row.path), [kept]);
			assert.deepEqual((await index?.stored([sessionsRoot(agent())]))?.map((row) => row.path), [here]);
			const db = openSqlite(join(temp(), 'index', 'i.sqlite'), { engine: 'auto', distDir });
			try {
				const words = db.prepare("SELECT count(*) AS n FROM docs_text WHERE docs_text MATCH 'secret OR kept'").all([]);
				assert.deepEqual(words.map((row) => Number(row['n'])), [1], 'the deleted session\'s words left the full-text index');
			} finally {
				db.close();
			}
			rmSync(otherAgent, { recursive: true });
			const later = await index?.refresh([sessionsRoot(agent())]);
			assert.deepEqual(Object.fromEntries(later?.outcomes ?? []), { unchanged: 1, removed: 1 });
		});

		it('searches only the folders asked for, however many better matches other folders hold, and lists every matching session up to the count asked for', async () => {
			const mine = writeSession(agent(), 'p', 'mine.jsonl', headerLine('aaaa') + userLine('u1', 'a long message that mentions the quokka once among many other words of little interest', 1000));
			const otherAgent = join(temp(), 'other-agent');
			for (let s = 0; s < 3; s++) {
				writeSession(otherAgent, 'q', `s${s}.jsonl`, headerLine(`bbbb-${s}`) + Array.from({ length: 200 }, (_, i) => userLine(`u${i}`, 'quokka quokka', 1000 + i)).join(''));
			}
			await opened();
			await index?.refresh([sessionsRoot(otherAgent)]);
			await index?.refresh([sessionsRoot(agent())]);
			const found = await searchHistory(index as HistoryIndex, 'quokka', { roots: [sessionsRoot(agent()).path] });
			assert.deepEqual(found.map((session) => session.path), [mine]);
			const everywhere = await searchHistory(index as HistoryIndex, 'quokka', { sessions: 10 });
			// 600 best messages in three sessions: the 400 best hold two or three of them, and each other matching session still comes, after them.
			assert.deepEqual([...everywhere.slice(0, 3).map((session) => session.id).sort(), ...everywhere.slice(3).map((session) => session.id)], ['bbbb-0', 'bbbb-1', 'bbbb-2', 'aaaa']);
			assert.ok(everywhere.every((session) => session.messages.length >= 1));
			const filtered = await searchHistory(index as HistoryIndex, 'quokka', { sessions: 200, messagesPerSession: 1 });
			assert.deepEqual(filtered.map((session) => [session.id, session.messages.length]).slice(3), [['aaaa', 1]], 'the sessions filter: each session\'s best message');
			assert.equal(filtered.length, 4);
			const mineOnly = await searchHistory(index as HistoryIndex, 'quokka', { sessions: 200, messagesPerSession: 1, roots: [sessionsRoot(agent()).path] });
			assert.deepEqual(mineOnly.map((session) => session.path), [mine]);
		});

		it('finds a Chinese or Japanese word inside a sentence written without spaces', async () => {
			const path = writeSession(agent(), 'p', 'cjk.jsonl', headerLine('cccc') + userLine('u1', '我们在数据库中检索记录', 1000) + assistantLine('a1', 'データベースを検索するにはReactコンポーネントを使います', 2000));
			await opened();
			await index?.refresh([sessionsRoot(agent())]);
			for (const [words, line] of [['检索', 2], ['数据库', 2], ['検索', 3], ['コンポーネント', 3], ['React', 3], ['データベース 検索', 3]] as const) {
				const found = await searchHistory(index as HistoryIndex, words);
				assert.deepEqual(found.map((session) => [session.path, session.messages.map((message) => message.line)]), [[path, [line]]], words);
			}
			assert.deepEqual(await searchHistory(index as HistoryIndex, '检记'), [], 'the characters in a row, not anywhere in the message');
			const [hit] = (await searchHistory(index as HistoryIndex, '检索'))[0]?.messages ?? [];
			assert.equal(hit?.snippet?.text, '我们在数据库中检索记录', 'shown as written');
		});

		it('waits for a half-written last line, then reads it once complete', async () => {
			const a = writeSession(agent(), 'p', 'a.jsonl', headerLine('aaaa') + userLine('u1', 'one', 1000));
			await opened();
			await refreshOutcomes();
			const next = userLine('u2', 'two', 2000);
			append(a, next.slice(0, 20));
			await refreshOutcomes();
			assert.equal((await stored(a))?.consumed, statSync(a).size - 20);
			append(a, next.slice(20));
			assert.deepEqual(await refreshOutcomes(), { appended: 1, removed: 0 });
			assert.deepEqual((await stored(a))?.summary, summarizeLines(EMPTY_SUMMARY, readFileSync(a, 'utf8')));
		});

		it('reads a file again when its first line changed, it shrank or it is a new inode; forgets a deleted file', async () => {
			const a = writeSession(agent(), 'p', 'a.jsonl', headerLine('aaaa') + userLine('u1', 'alpha words', 1000) + userLine('u2', 'beta words', 2000));
			const b = writeSession(agent(), 'p', 'b.jsonl', headerLine('bbbb') + userLine('u1', 'gamma', 1000));
			await opened();
			await refreshOutcomes();
			// Rewritten with another first line (Pi migrating a file), same size or larger.
			writeFileSync(a, headerLine('cccc') + userLine('u1', 'delta words', 1000) + userLine('u2', 'beta words', 2000));
			assert.deepEqual(await refreshOutcomes(), { indexed: 1, unchanged: 1, removed: 0 });
			assert.equal((await searchHistory(index as HistoryIndex, 'alpha')).length, 0, 'the old lines left the index');
			assert.equal((await searchHistory(index as HistoryIndex, 'delta'))[0]?.id, 'cccc');
			// Shrunk.
			truncateSync(a, Buffer.byteLength(headerLine('cccc') + userLine('u1', 'delta words', 1000)));
			assert.deepEqual(await refreshOutcomes(), { indexed: 1, unchanged: 1, removed: 0 });
			assert.deepEqual((await stored(a))?.summary, summarizeLines(EMPTY_SUMMARY, readFileSync(a, 'utf8')));
			assert.equal((await searchHistory(index as HistoryIndex, 'beta')).length, 0);
			// A new inode with the same first line (a copy moved over it).
			const copy = join(temp(), 'copy.jsonl');
			writeFileSync(copy, headerLine('cccc') + userLine('u1', 'epsilon', 1000));
			renameSync(copy, a);
			assert.deepEqual(await refreshOutcomes(), { indexed: 1, unchanged: 1, removed: 0 });
			assert.equal((await searchHistory(index as HistoryIndex, 'delta')).length, 0);
			assert.equal((await searchHistory(index as HistoryIndex, 'epsilon')).length, 1);
			// Deleted.
			rmSync(b);
			assert.deepEqual(await refreshOutcomes(), { unchanged: 1, removed: 1 });
			assert.equal(await stored(b), undefined);
			assert.equal((await searchHistory(index as HistoryIndex, 'gamma')).length, 0);
		});

		it('the watcher\'s call brings one file up to date, or forgets it', async () => {
			const a = writeSession(agent(), 'p', 'a.jsonl', headerLine('aaaa') + userLine('u1', 'one', 1000));
			await opened();
			await refreshOutcomes();
			append(a, assistantLine('a1', 'zanzibar appears', 3000));
			assert.equal(await index?.fileChanged(a, sessionsRoot(agent())), 'appended');
			assert.equal((await searchHistory(index as HistoryIndex, 'zanzibar'))[0]?.messages[0]?.line, 3);
			rmSync(a);
			assert.equal(await index?.fileChanged(a, sessionsRoot(agent())), 'removed');
			assert.equal(await stored(a), undefined);
		});

		it('a stopped build keeps what it read and goes on from there; the first files asked for come first', async () => {
			const files = ['a', 'b', 'c', 'd'].map((name) => {
				const path = join(agent(), 'sessions', '--p--', `${name}.jsonl`);
				writeSession(agent(), 'p', `${name}.jsonl`, '');
				copyFileSync(join(realSessionsDir, 'large-session.migrated-v3.jsonl'), path);
				return path;
			});
			await opened();
			const controller = new AbortController();
			const seen: number[] = [];
			await assert.rejects(index?.refresh([sessionsRoot(agent())], {
				signal: controller.signal,
				first: [files[3] as string],
				onProgress: (progress) => {
					seen.push(progress.filesDone);
					if (progress.filesDone === 1 && progress.bytesRead > 0) {
						controller.abort();
					}
				},
			}) ?? Promise.resolve());
			assert.equal((await stored(files[3] as string))?.size, statSync(files[3] as string).size, 'the file asked for first is complete');
			const resumed = await index?.refresh([sessionsRoot(agent())]);
			assert.equal(resumed?.outcomes.get('unchanged'), 1);
			const total = files.reduce((sum, file) => sum + statSync(file).size, 0);
			assert.ok((resumed?.bytesRead ?? 0) < total - statSync(files[3] as string).size + 1, 'what was read before the stop is not read again');
			for (const file of files) {
				assert.deepEqual((await stored(file))?.summary, summarizeLines(EMPTY_SUMMARY, readFileSync(file, 'utf8')), file);
			}
		});

		it('ranks by relevance (bm25), groups by session, and shows where the words are', async () => {
			writeSession(agent(), 'p', 'a.jsonl', headerLine('aaaa') + userLine('u1', 'the kubernetes deployment failed again', 1000) + assistantLine('a1', 'kubernetes kubernetes kubernetes: the deployment manifest is wrong', 2000));
			writeSession(agent(), 'q', 'b.jsonl', headerLine('bbbb') + userLine('u1', 'a long note that mentions kubernetes once among many other words about lunch and weather and trains', 1000));
			writeSession(agent(), 'q', 'c.jsonl', headerLine('cccc') + userLine('u1', 'nothing relevant here', 1000));
			await opened();
			await refreshOutcomes();
			const results = await searchHistory(index as HistoryIndex, 'Kubernetes deploy');
			assert.deepEqual(results.map((r) => r.id), ['aaaa'], 'all words must occur (deploy finds deployment)');
			const both = await searchHistory(index as HistoryIndex, 'kubernetes');
			assert.deepEqual(both.map((r) => r.id), ['aaaa', 'bbbb']);
			assert.deepEqual(both[0]?.messages.map((m) => [m.line, m.role, m.entryId]), [[3, 'assistant', 'a1'], [2, 'user', 'u1']]);
			const snippet = both[0]?.messages[0]?.snippet;
			assert.ok(snippet && snippet.marks.length > 0);
			assert.equal(snippet.text.slice(snippet.marks[0]?.[0], snippet.marks[0]?.[1]).toLowerCase(), 'kubernetes');
			assert.deepEqual(await searchHistory(index as HistoryIndex, '"* OR NEAR('), [], 'FTS syntax in what was typed is only text');
		});

		it('a damaged file, or one of an older layout or not ours, is moved aside and rebuilt, and said once', async () => {
			const path = join(temp(), 'index', 'i.sqlite');
			writeSession(agent(), 'p', 'a.jsonl', headerLine('aaaa') + userLine('u1', 'quokka', 1000));
			for (const [reason, make] of [
				['corrupt', () => writeFileSync(path, 'this is not a database '.repeat(300))],
				['older', () => {
					const db = openSqlite(path, { engine: 'auto', distDir });
					db.exec(`PRAGMA application_id = ${0x50694349}; PRAGMA user_version = ${SCHEMA_VERSION - 1}; CREATE TABLE t (x);`);
					db.close();
				}],
				['foreign', () => {
					const db = openSqlite(path, { engine: 'auto', distDir });
					db.exec('CREATE TABLE someone_elses (x); INSERT INTO someone_elses VALUES (1);');
					db.close();
				}],
			] as const) {
				rmSync(join(temp(), 'index'), { recursive: true, force: true });
				writeSession(temp(), 'x', 'y', '');
				rmSync(join(temp(), 'sessions'), { recursive: true, force: true });
				const { mkdirSync } = await import('node:fs');
				mkdirSync(join(temp(), 'index'));
				make();
				const result = await openTestIndex(path);
				index = result.index;
				assert.ok(index, reason);
				assert.deepEqual(result.notices.map((n) => [n.kind, n.kind === 'rebuilt' ? n.reason : '']), [['rebuilt', reason]]);
				assert.ok(existsSync(`${path}.${reason}.bak`));
				await index.refresh([sessionsRoot(agent())]);
				assert.equal((await searchHistory(index, 'quokka')).length, 1, reason);
				await index.close();
				index = undefined;
			}
		});

		it('an index of a newer layout is left as it is and the index is off, said once', async () => {
			const path = join(temp(), 'index', 'i.sqlite');
			const { mkdirSync } = await import('node:fs');
			mkdirSync(join(temp(), 'index'));
			const db = openSqlite(path, { engine: 'auto', distDir });
			db.exec(`PRAGMA application_id = ${0x50694349}; PRAGMA user_version = ${SCHEMA_VERSION + 1}; CREATE TABLE future (x);`);
			db.close();
			const before = readFileSync(path);
			const result = await openTestIndex(path);
			assert.equal(result.index, undefined);
			assert.deepEqual(result.notices.map((n) => [n.kind, n.kind === 'off' ? n.reason : '']), [['off', 'newer']]);
			assert.deepEqual(readFileSync(path), before);
		});

		it('clear forgets every session and gives the space back; the next refresh builds it again', async () => {
			const path = join(temp(), 'index', 'i.sqlite');
			const big = join(agent(), 'sessions', '--p--', 'big.jsonl');
			writeSession(agent(), 'p', 'big.jsonl', '');
			copyFileSync(join(realSessionsDir, 'large-session.migrated-v3.jsonl'), big);
			await opened(path);
			const empty = statSync(path).size;
			await refreshOutcomes();
			const full = statSync(path).size;
			await index?.clear();
			assert.deepEqual(await index?.stored([sessionsRoot(agent())]), []);
			// Back to the size of a new index (its tables' first pages), a small part of the full one.
			assert.ok(statSync(path).size <= empty && empty < full / 2, `${statSync(path).size} <= ${empty} < ${full} / 2`);
			assert.deepEqual(await refreshOutcomes(), { indexed: 1, removed: 0 });
			assert.equal((await searchHistory(index as HistoryIndex, 'mode')).length, 1);
		});

		it('keeps the index private: 0600 in a 0700 folder (the default folder made private even when it existed)', async function () {
			if (process.platform === 'win32') {
				this.skip();
			}
			const folder = join(temp(), 'cache', 'pi-condense');
			const { mkdirSync, chmodSync } = await import('node:fs');
			mkdirSync(folder, { recursive: true, mode: 0o755 });
			chmodSync(folder, 0o755);
			const path = join(folder, 'session-index.sqlite');
			const result = await openTestIndex(path, 'auto', true);
			index = result.index;
			writeSession(agent(), 'p', 'a.jsonl', headerLine('aaaa') + userLine('u1', 'private words', 1000));
			await index?.refresh([sessionsRoot(agent())]);
			assert.equal(statSync(folder).mode & 0o777, 0o700);
			assert.equal(statSync(path).mode & 0o777, 0o600);
			// A folder the user named is created private but never changed.
			const named = join(temp(), 'mine');
			mkdirSync(named, { mode: 0o755 });
			chmodSync(named, 0o755);
			const other = await openTestIndex(join(named, 'i.sqlite'), 'auto', false);
			await other.index?.close();
			assert.equal(statSync(named).mode & 0o777, 0o755);
			assert.equal(statSync(join(named, 'i.sqlite')).mode & 0o777, 0o600);
			const fresh = join(temp(), 'new', 'deeper');
			const third = await openTestIndex(join(fresh, 'i.sqlite'), 'auto', false);
			await third.index?.close();
			assert.equal(statSync(fresh).mode & 0o777, 0o700);
		});
	});
}

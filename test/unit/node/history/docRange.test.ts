/**
 * A session's searchable messages have ids in a range of their own (`doc = sid * DOCS_PER_SESSION + n`):
 * one whose range is full (2^26 messages, a file of gigabytes, here made so by a planted row) keeps
 * the messages that fit searchable and drops the rest, never giving them the next session's ids.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { searchHistory } from '../../../../src/node/history/historySearch';
import { DOCS_PER_SESSION } from '../../../../src/node/history/indexSchema';
import { useTempDir } from '../../../support/tempDirs';
import { append, headerLine, openTestIndex, sessionsRoot, userLine, writeSession } from '../../../support/history/indexKit';

describe('history index: the range of a session\'s search ids', function () {
	this.timeout(60_000);
	const temp = useTempDir('history-doc-range');

	it('keeps a session whose range is full out of the next session\'s ids', async () => {
		const agentDir = join(temp(), 'agent');
		const start = Date.UTC(2026, 0, 1);
		const full = writeSession(agentDir, 'p', 'a.jsonl', headerLine('a') + userLine('a1', 'first words', start));
		writeSession(agentDir, 'p', 'b.jsonl', headerLine('b') + userLine('b1', 'second words', start));
		const { index, notices } = await openTestIndex(join(temp(), 'i.sqlite'));
		assert.ok(index, JSON.stringify(notices));
		try {
			const roots = [sessionsRoot(agentDir)];
			await index.refresh(roots);
			const sids = await index.db.read((db) => db.prepare('SELECT sid, path FROM sessions ORDER BY sid').all());
			const sidOf = (path: string): number => Number(sids.find((row) => row['path'] === path)?.['sid']);
			const a = sidOf(full);
			const b = sids.map((row) => Number(row['sid'])).find((sid) => sid !== a) ?? Number.NaN;
			// Session a's range taken up to its last id but one.
			const lastOfA = (a + 1) * DOCS_PER_SESSION - 1;
			await index.db.write((db) => void db.prepare('INSERT INTO docs (doc, role, time, line, offset, bytes) VALUES (?, 0, NULL, 1, 0, 1)').run([lastOfA - 1]));
			append(full, userLine('a2', 'fitsword', start + 1) + userLine('a3', 'spillword', start + 2) + userLine('a4', 'spillword again', start + 3));
			await index.refresh(roots);
			const docs = await index.db.read((db) => db.prepare('SELECT doc FROM docs ORDER BY doc').all().map((row) => Number(row['doc'])));
			assert.ok(docs.every((doc) => Math.floor(doc / DOCS_PER_SESSION) === a || Math.floor(doc / DOCS_PER_SESSION) === b), JSON.stringify(docs));
			assert.equal(docs.filter((doc) => Math.floor(doc / DOCS_PER_SESSION) === b).length, 1, 'session b keeps its one message, and no other');
			assert.ok(docs.includes(lastOfA), 'the message that fits takes the last id');
			const fits = await searchHistory(index, 'fitsword');
			assert.deepEqual(fits.map((hits) => hits.path), [full]);
			const spilled = await searchHistory(index, 'spillword');
			assert.equal(spilled.length, 0, 'the messages past the range are not searchable, nor found in another session');
		} finally {
			await index.close();
		}
	});
});

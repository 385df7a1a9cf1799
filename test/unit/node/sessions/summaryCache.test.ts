import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EMPTY_SUMMARY, summarizeLines } from '../../../../src/engine/session/summary';
import { SessionSummaryCache } from '../../../../src/node/sessions/summaryCache';
import { realSessionFiles, realSessionsDir } from '../../../support/paths';
import { useTempDir } from '../../../support/tempDirs';

const line = (value: Record<string, unknown>): string => `${JSON.stringify(value)}\n`;
const header = (id: string, version?: number): string => line({ type: 'session', ...(version ? { version } : {}), id, timestamp: '2026-01-01T00:00:00.000Z', cwd: '/p' });
const user = (text: string, timestamp: number): string => line({ type: 'message', id: `u${timestamp}`, parentId: null, timestamp: new Date(timestamp).toISOString(), message: { role: 'user', content: text, timestamp } });

describe('SessionSummaryCache', () => {
	const temp = useTempDir('summary');

	it('summarizes a real session exactly as the pure summary of its whole text, even in tiny pieces', async () => {
		for (const file of realSessionFiles()) {
			const expected = summarizeLines(EMPTY_SUMMARY, readFileSync(file, 'utf8'));
			const result = await new SessionSummaryCache(4096).summarize(file);
			assert.deepEqual(result.summary, expected, file);
			assert.equal(result.scannedBytes, statSync(file).size);
		}
	});

	it('returns the cached result for an unchanged file without reading it', async () => {
		const path = join(temp(), 's.jsonl');
		writeFileSync(path, header('a', 3) + user('hi', 1000));
		const cache = new SessionSummaryCache();
		const first = await cache.summarize(path);
		const second = await cache.summarize(path);
		assert.equal(second.scannedBytes, 0);
		assert.equal(second, await cache.summarize(path), 'a hit allocates nothing');
		assert.deepEqual({ ...second, scannedBytes: first.scannedBytes }, first);
	});

	it('reads only the appended bytes when a file grew, and waits for a partial line to complete', async () => {
		const path = join(temp(), 's.jsonl');
		const copy = join(temp(), 'copy.jsonl');
		copyFileSync(join(realSessionsDir, 'large-session.migrated-v3.jsonl'), path);
		const cache = new SessionSummaryCache();
		const before = await cache.summarize(path);
		const sizeBefore = statSync(path).size;

		const added = user('appended later', Date.parse('2030-01-01T00:00:00.000Z'));
		appendFileSync(path, added.slice(0, 20));
		const partial = await cache.summarize(path);
		assert.equal(partial.scannedBytes, 20);
		assert.equal(partial.summary.messageCount, before.summary.messageCount);

		appendFileSync(path, added.slice(20));
		const grown = await cache.summarize(path);
		assert.equal(grown.scannedBytes, statSync(path).size - sizeBefore, 'rescanned only from the end of the last complete line');
		assert.equal(grown.summary.messageCount, before.summary.messageCount + 1);
		assert.equal(grown.modified, Date.parse('2030-01-01T00:00:00.000Z'));

		copyFileSync(path, copy);
		assert.deepEqual(grown.summary, (await new SessionSummaryCache().summarize(copy)).summary, 'same as a cold scan');
	});

	it('scans again when the file was rewritten: first line changed (a Pi migration) or truncated', async () => {
		const path = join(temp(), 's.jsonl');
		writeFileSync(path, header('a') + user('one', 1000) + user('two', 2000));
		const cache = new SessionSummaryCache();
		assert.equal((await cache.summarize(path)).summary.messageCount, 2);

		writeFileSync(path, header('a', 3) + user('one', 1000) + user('two', 2000) + user('three', 3000));
		const migrated = await cache.summarize(path);
		assert.equal(migrated.scannedBytes, statSync(path).size, 'a full scan');
		assert.equal(migrated.summary.messageCount, 3);

		truncateSync(path, (header('a', 3) + user('one', 1000)).length);
		const truncated = await cache.summarize(path);
		assert.equal(truncated.summary.messageCount, 1);
		assert.equal(truncated.summary.firstUserMessage, 'one');
	});

	it('rejects for a file that disappeared and forgets it', async () => {
		const path = join(temp(), 'gone.jsonl');
		writeFileSync(path, header('a', 3));
		const cache = new SessionSummaryCache();
		await cache.summarize(path);
		rmSync(path);
		await assert.rejects(cache.summarize(path), /ENOENT/);
		assert.equal(cache.peek(path), undefined);
	});
});

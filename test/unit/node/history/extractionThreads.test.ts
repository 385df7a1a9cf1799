import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExtractionPool } from '../../../../src/node/history/extractionPool';
import { GATHER_BYTES } from '../../../../src/node/history/fileExtraction';
import type { ExtractedBatch } from '../../../../src/node/history/fileIndexer';
import type { FileDecision } from '../../../../src/node/history/fileIndexer';
import type { HistoryIndex } from '../../../../src/node/history/historyIndex';
import { searchHistory } from '../../../../src/node/history/historySearch';
import { piCondenseSessionsDir, realSessionFiles } from '../../../support/paths';
import { useTempDir } from '../../../support/tempDirs';
import { distDir, headerLine, openTestIndex, sessionsRoot, userLine, writeSession, type Extraction } from '../../../support/history/indexKit';

/** Everything the index holds of each file, with the doc rows as written (ids left out: they depend on the order files were written in). */
async function everything(index: HistoryIndex, agentDir: string): Promise<Record<string, unknown>> {
	const rows = await index.stored([sessionsRoot(agentDir)]);
	return index.db.read((db) => Object.fromEntries(rows.map((row) => [row.path, {
		row: { ...row, sid: undefined },
		usage: db.prepare('SELECT line, entry_id, source, kind, provider, model, time, input, output, cache_read, cache_write, total_tokens, cost FROM usage_with_model WHERE sid = ? ORDER BY line').all([row.sid]),
		events: db.prepare('SELECT line, entry_id, entry_type, custom_type, time, facts FROM events WHERE sid = ? ORDER BY line').all([row.sid]),
		docs: db.prepare('SELECT role, time, line, offset, bytes FROM docs WHERE doc BETWEEN ? AND ? ORDER BY doc').all([row.sid * 2 ** 26, (row.sid + 1) * 2 ** 26 - 1]),
	}])));
}

describe('history index: extraction threads', function () {
	this.timeout(120_000);
	const temp = useTempDir('history-threads');
	const opened: HistoryIndex[] = [];

	afterEach(async () => {
		await Promise.all(opened.splice(0).map((index) => index.close()));
	});

	async function open(name: string, extraction: Extraction): Promise<HistoryIndex> {
		const { index, notices } = await openTestIndex(join(temp(), name, 'i.sqlite'), 'auto', false, extraction);
		assert.ok(index, JSON.stringify(notices));
		opened.push(index);
		return index;
	}

	/** Every fixture session twice, in three projects: about 20 MB, several batches in some files. */
	function history(): string {
		const agentDir = join(temp(), 'agent');
		const sources = [...realSessionFiles(), join(piCondenseSessionsDir, 'large-bulk-2.9.1', 'session.jsonl'), join(piCondenseSessionsDir, 'large-bulk', 'session.jsonl')];
		sources.concat(sources).forEach((source, i) => {
			const folder = join(agentDir, 'sessions', `--p${i % 3}--`);
			mkdirSync(folder, { recursive: true });
			copyFileSync(source, join(folder, `s${i}.jsonl`));
		});
		return agentDir;
	}

	it('gives exactly the rows, texts and search results that extraction on this thread gives, with one thread or two', async () => {
		const agentDir = history();
		const here = await open('here', 'here');
		const fromHere = await here.refresh([sessionsRoot(agentDir)]);
		for (const extraction of ['threads', 'two threads'] as const) {
			const threads = await open(extraction, extraction);
			const fromThreads = await threads.refresh([sessionsRoot(agentDir)]);
			assert.deepEqual(Object.fromEntries(fromThreads.outcomes), Object.fromEntries(fromHere.outcomes), extraction);
			assert.equal(fromThreads.bytesRead, fromHere.bytesRead, extraction);
			assert.deepEqual(await everything(threads, agentDir), await everything(here, agentDir), extraction);
			for (const words of ['error', 'build failed', 'function', 'mode']) {
				// Two threads write the files in another order: copies of one session then rank equal in another order.
				const inOrder = (results: string[]): string[] => (extraction === 'threads' ? results : results.sort());
				const found = (index: HistoryIndex): Promise<string[]> => searchHistory(index, words)
					.then((results) => inOrder(results.map((r) => JSON.stringify([r.path, r.messages.map((m) => [m.line, m.role, m.snippet?.text])]))));
				assert.deepEqual(await found(threads), await found(here), `${extraction}: ${words}`);
			}
		}
	});

	it('a stopped build keeps what the threads had written, and the next refresh completes it to what one build gives', async () => {
		const agentDir = history();
		const stopped = await open('stopped', 'threads');
		const controller = new AbortController();
		await assert.rejects(stopped.refresh([sessionsRoot(agentDir)], {
			signal: controller.signal,
			onProgress: (progress) => {
				if (progress.bytesRead > 0) {
					controller.abort();
				}
			},
		}));
		const resumed = await stopped.refresh([sessionsRoot(agentDir)]);
		assert.ok((resumed.outcomes.get('unchanged') ?? 0) + (resumed.outcomes.get('appended') ?? 0) >= 1, JSON.stringify(Object.fromEntries(resumed.outcomes)));
		const whole = await open('whole', 'here');
		await whole.refresh([sessionsRoot(agentDir)]);
		assert.deepEqual(await everything(stopped, agentDir), await everything(whole, agentDir));
	});

	it('a file a thread cannot read is a problem of that file; every other file is indexed', async function () {
		if (process.platform !== 'linux') {
			this.skip(); // the unreadable regular file is Linux's /proc/self/mem
		}
		const agentDir = join(temp(), 'agent');
		writeSession(agentDir, 'p', 'a.jsonl', headerLine('aaaa') + userLine('u1', 'readable words', 1000));
		// Listed as a session (a link to a regular file, as Pi follows it), stats fine, and fails when read: EIO
		// (a link to a folder is no session file: the listing leaves it out, as Pi's does).
		symlinkSync('/proc/self/mem', join(agentDir, 'sessions', '--p--', 'b.jsonl'));
		const index = await open('index', 'threads');
		const result = await index.refresh([sessionsRoot(agentDir)]);
		assert.equal(result.problems.length, 1, result.problems.join('\n'));
		assert.match(result.problems[0] ?? '', /b\.jsonl: .*EIO/);
		assert.equal((await searchHistory(index, 'readable'))[0]?.id, 'aaaa');
	});

	it('holds at most a few batches while the writer is busy, whatever the file\'s size', async () => {
		// 60 MB of lines: more than a dozen batches of 4 MB, more than the pool may hold.
		const path = join(temp(), 'big.jsonl');
		const line = userLine('u', `${'word '.repeat(200)}`, 1000);
		writeFileSync(path, headerLine('bbbb') + line.repeat(Math.ceil(60 * 1024 * 1024 / line.length)));
		// 16 MB held here and 16 MB on their way (HELD_BYTES, 64 MB, would need a file of 140 MB).
		const heldBytes = 16 * 1024 * 1024;
		const pool = ExtractionPool.create(distDir, 1, heldBytes);
		assert.ok(pool);
		let release: (() => void) | undefined;
		const held: number[] = [];
		let batches = 0;
		let decided: FileDecision | undefined;
		const read = pool.read({ path, root: temp(), stored: undefined }, {
			decided: (decision) => {
				decided = decision;
				return Promise.resolve();
			},
			batch: async (batch: ExtractedBatch) => {
				batches++;
				held.push(pool.heldBatches);
				if (batches === 1) {
					// The writer is stuck on the first batch until the thread has read on as far as it may.
					await new Promise<void>((resolve) => {
						release = resolve;
					});
				}
				assert.ok(batch.bytes > 0 || batch.last);
			},
		});
		const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));
		// Each batch covers at least GATHER_BYTES: those of heldBytes are acknowledged at once, heldBytes more are sent.
		const most = 2 * Math.ceil(heldBytes / GATHER_BYTES);
		// Until the thread has sent all it may (it is then held back), and a while longer: it sends no more.
		while (pool.heldBatches < most) {
			held.push(pool.heldBatches);
			await pause();
		}
		for (let i = 0; i < 50; i++) {
			held.push(pool.heldBatches);
			await pause();
		}
		release?.();
		await read;
		await pool.close();
		assert.equal(decided?.kind, 'read');
		assert.ok(batches > most + 2, `${batches} batches`);
		assert.ok(Math.max(...held) <= most, `held ${held.join(', ')}`);
	});
});

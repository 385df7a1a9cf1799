/**
 * A FIFO put in a session file's place after the index listed it (a race, or someone with write access
 * to Pi's folder): neither the index's readers (on this thread and in an extraction thread) nor a
 * search that reads a found message again wait for a writer that never comes. Each test hangs
 * (and times out) when the file is opened blocking.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { runSteps } from '../../../../src/engine/steps';
import { ExtractionPool } from '../../../../src/node/history/extractionPool';
import { inThreadReader, type FileReader } from '../../../../src/node/history/fileExtraction';
import type { FileDecision } from '../../../../src/node/history/fileIndexer';
import type { HistoryIndex } from '../../../../src/node/history/historyIndex';
import { searchHistory } from '../../../../src/node/history/historySearch';
import { useTempDir } from '../../../support/tempDirs';
import { distDir, headerLine, openTestIndex, sessionsRoot, userLine, writeSession } from '../../../support/history/indexKit';

const fifoSupported = process.platform !== 'win32';

(fifoSupported ? describe : describe.skip)('a FIFO in a session file\'s place', function () {
	this.timeout(20_000);
	const temp = useTempDir('fifo-in-place');

	async function decisionOf(read: FileReader, path: string): Promise<FileDecision | undefined> {
		let decided: FileDecision | undefined;
		await read({ path, root: temp(), stored: undefined }, {
			decided: (decision) => {
				decided = decision;
				return Promise.resolve();
			},
			batch: () => Promise.reject(new Error('a FIFO has no lines')),
		});
		return decided;
	}

	it('is no session to the index\'s readers, on this thread and in an extraction thread', async () => {
		const fifo = join(temp(), 'a.jsonl');
		execFileSync('mkfifo', [fifo]);
		assert.deepEqual(await decisionOf(inThreadReader((steps) => Promise.resolve(runSteps(steps))), fifo), { kind: 'removed' });
		const pool = ExtractionPool.create(distDir, 1);
		assert.ok(pool);
		try {
			assert.deepEqual(await decisionOf(pool.read, fifo), { kind: 'removed' });
		} finally {
			await pool.close();
		}
	});

	it('gives a search no snippet of a message whose file became a FIFO', async () => {
		const agent = join(temp(), 'agent');
		const path = writeSession(agent, 'p', 'a.jsonl', headerLine('aaaa') + userLine('u1', 'the quokka word', 1000));
		const opened = await openTestIndex(join(temp(), 'index', 'i.sqlite'));
		const index = opened.index as HistoryIndex;
		try {
			await index.refresh([sessionsRoot(agent)]);
			const before = await searchHistory(index, 'quokka');
			assert.ok(before[0]?.messages[0]?.snippet, 'found and shown while it is a file');
			rmSync(path);
			execFileSync('mkfifo', [path]);
			const found = await searchHistory(index, 'quokka');
			assert.deepEqual(found.map((session) => session.messages.map((message) => message.snippet)), [[undefined]]);
		} finally {
			await index.close();
		}
	});
});

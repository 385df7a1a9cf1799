/**
 * The index's cross-process lock (`<db>.mutex`, a folder): a use waits while another holds it and
 * takes it once let go, and one waiting when the index's folder is deleted fails at once, saying
 * so (proper-lockfile's own retries tried the missing folder for their whole budget, ~16 s).
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { IndexLock, IndexLockError } from '../../../../src/node/history/indexLock';
import { useTempDir } from '../../../support/tempDirs';

/** Long enough for a use to have tried the lock a few times (its first pauses are of 2-4 ms). */
const WHILE_IT_WAITS_MS = 50;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `condition` holds, checking at each turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
	while (!condition()) {
		await new Promise((resolve) => setImmediate(resolve));
	}
}

describe('IndexLock', () => {
	const tempDir = useTempDir('pi-condense-index-lock-');

	it('waits while another holder has the lock, and runs once it is let go', async () => {
		const dbPath = join(tempDir(), 'index.sqlite');
		mkdirSync(`${dbPath}.mutex`); // another process's fresh hold
		const lock = new IndexLock(dbPath);
		let ran = false;
		const use = lock.run(() => {
			ran = true;
			return 'done';
		});
		await pause(WHILE_IT_WAITS_MS);
		assert.equal(ran, false, 'waits while the other hold lasts');
		rmSync(`${dbPath}.mutex`, { recursive: true });
		assert.equal(await use, 'done');
		await lock.close();
	});

	it('fails at once, naming the folder, when the index folder is deleted while a use waits for the lock', async () => {
		const folder = join(tempDir(), 'index');
		mkdirSync(folder);
		const dbPath = join(folder, 'index.sqlite');
		mkdirSync(`${dbPath}.mutex`);
		const lock = new IndexLock(dbPath);
		let settled = false;
		const use = lock.run(() => 'ran');
		use.then(() => (settled = true), () => (settled = true));
		await pause(WHILE_IT_WAITS_MS);
		assert.equal(settled, false, 'waits while the other hold lasts');
		rmSync(folder, { recursive: true });
		await until(() => settled);
		await assert.rejects(use, (error: unknown) => error instanceof IndexLockError && error.message === `the folder of the session index is gone: ${folder}`);
		await lock.close();
	});
});

/**
 * A closed chokidar watcher leaves no timer behind: events still throttled when it closes (here a
 * burst of file changes and folder changes) have their timers cleared, which chokidar's own
 * `close()` does not do.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { watch } from 'chokidar';
import { closeWatcher } from '../../../../src/node/fs/closeWatcher';
import { useTempDir } from '../../../support/tempDirs';

const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('closeWatcher', () => {
	const tempDir = useTempDir('pi-condense-close-watcher');

	it('clears the throttle timers chokidar still has pending when it closes', async () => {
		const dir = tempDir();
		const file = join(dir, 'a.jsonl');
		writeFileSync(file, 'x\n');
		const watcher = watch(dir, { ignoreInitial: true });
		await new Promise<void>((ready) => watcher.once('ready', () => ready()));
		const throttled = new Promise<void>((seen) => watcher.once('all', () => seen()));
		const before = timers();
		for (let i = 0; i < 5; i++) {
			appendFileSync(file, `${i}\n`);
			mkdirSync(join(dir, `d${i}`));
		}
		await throttled;
		assert.ok(timers() > before, 'chokidar is throttling events when it closes');
		await closeWatcher(watcher);
		assert.equal(timers(), before, 'no timer of the watcher is left');
	});
});

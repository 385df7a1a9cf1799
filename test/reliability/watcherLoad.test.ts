/**
 * The bounded version of the watcher load (`npm run stress` runs 2,000 files for a minute): every
 * appended byte reported once, in order, and each incremental model equal to a cold read.
 */
import assert from 'node:assert/strict';
import { runWatcherLoad } from '../support/watcherLoad';

describe('session watcher under load (bounded)', function () {
	this.timeout(60_000);

	it('200 files, one growing by 100 lines a second for 3 s and five written now and then: no event lost, models equal cold reads', async () => {
		const result = await runWatcherLoad({ files: 200, durationMs: 3000, linesPerSecond: 100, otherWriters: 5, seed: 7 });
		console.log(`      ${result.events} events, ${result.linesWritten} lines (${(result.bytesWritten / 1e6).toFixed(1)} MB) written and reported`);
		assert.deepEqual(result.mismatches, []);
		assert.ok(result.linesWritten >= 250);
		assert.equal(result.bytesReported, result.bytesWritten);
	});
});

/**
 * Undo Last Prune under the writer's stress, bounded (`npm run stress -- undo` runs 1,000 and 400):
 * undos racing a simulated Pi on the same file, and undo processes killed at random moments. From
 * fixed seeds (`PI_CONDENSE_SEED`, `PI_CONDENSE_TRIALS`, `PI_CONDENSE_TRIAL` as for the writer).
 */
import assert from 'node:assert/strict';
import { runUndoCrashTrials } from '../support/crash/undoCrashHarness';
import { describeUndoTrials, runUndoTrials } from '../support/undoTrials';

const seed = Number(process.env['PI_CONDENSE_SEED'] ?? 290_001);
const only = process.env['PI_CONDENSE_TRIAL'];
const trials = only === undefined ? Number(process.env['PI_CONDENSE_TRIALS'] ?? 150) : 1;

describe('undo of a prune under stress', function () {
	this.timeout(Math.max(180_000, trials * 1000));

	it(`removes exactly our lines or refuses, never losing a line a concurrent Pi wrote (${trials} trial(s), seed ${seed})`, async () => {
		const summary = await runUndoTrials({ seed, first: only === undefined ? 0 : Number(only), count: trials });
		console.log(`      ${describeUndoTrials(summary)}`);
		for (const race of summary.residualRaces) {
			console.log(`        ${race}`);
		}
		assert.deepEqual(summary.failures, []);
		if (only === undefined) {
			assert.ok(summary.undone > 0 && Object.keys(summary.refused).length > 0, 'the trials both undo and refuse (the race is really run)');
		}
	});

	it('killed anywhere, leaves the file with our lines or without them, byte for byte, and a second undo completes it', async () => {
		const summary = await runUndoCrashTrials({ baseSeed: seed, trials: 20 });
		console.log(`      undo kills, seeds ${seed}..${seed + 19}: ${JSON.stringify(summary.outcomes)}`);
		assert.deepEqual(summary.failures, []);
		assert.ok(summary.outcomes.kept > 0 && summary.outcomes.removed > 0, 'kills land both before and after the truncation');
	});
});

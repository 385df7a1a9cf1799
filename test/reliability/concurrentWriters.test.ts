/**
 * Issue 4, acceptance 3: a simulated Pi and our writer work on the same file at the same time (see
 * `test/support/concurrentWriterTrials.ts`). Our write either goes through, waits, or refuses, and
 * no line of either writer is ever lost, merged or damaged.
 *
 * Fixed seed by default; drawn seeds and 1,000 trials are `npm run stress -- writers`.
 * `PI_CONDENSE_SEED` sets the seed, `PI_CONDENSE_TRIALS` the number of trials (default 200),
 * `PI_CONDENSE_TRIAL` runs that one trial only (each trial is determined by seed + trial).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseSessionSteps } from '../../src/engine/session';
import { describeWriterTrials, runWriterTrials } from '../support/concurrentWriterTrials';
import { SessionBuilder, text } from '../support/sessionBuilder';
import { runSimulatedPi } from '../support/simulatedPi';
import { TempDir } from '../support/tempSession';
import { runSteps } from '../../src/engine/steps';

/** The seed of the one failure seen (trial 129): kept, so that trial runs every time. */
const seed = Number(process.env['PI_CONDENSE_SEED'] ?? 720756);
const only = process.env['PI_CONDENSE_TRIAL'];
const trials = only === undefined ? Number(process.env['PI_CONDENSE_TRIALS'] ?? 200) : 1;
const first = only === undefined ? 0 : Number(only);

describe('write: concurrent simulated Pi (issue 4, acceptance 3)', function () {
	this.timeout(Math.max(120_000, trials * 1000));

	it(`never loses or merges a line in ${trials} trial(s) (seed ${seed}${only === undefined ? '' : `, trial ${first}`})`, async () => {
		const summary = await runWriterTrials({ seed, first, count: trials });
		console.log(`      ${trials} trial(s), seed ${seed}: ${describeWriterTrials(summary)}`);
		for (const disturbance of summary.disturbances) {
			console.log(`        ${disturbance}`);
		}
		assert.deepEqual(summary.failures, []);
	});

	it('the simulated Pi never reuses an id of the file it appends to (it did with seed 720885 = 11 × 0xffff)', async () => {
		// The flaky trial 129 of seed 720756 gave the simulator seed 720885, whose ids were then
		// `0000` + a counter: `00000001` and `00000002` again, the ids of the builder's first entries.
		// The writer refused the file for its duplicate ids, correctly; the simulator was at fault.
		const dir = new TempDir();
		try {
			const builder = new SessionBuilder();
			builder.user('start');
			builder.assistant([text('ready')]);
			const file = dir.file('session.jsonl', builder.text(), 0);
			await runSimulatedPi({ file, leafId: builder.leafId as string, entries: 10, maxDelayMs: 0, seed: 720885 });
			const model = runSteps(parseSessionSteps(readFileSync(file, 'utf8')));
			assert.deepEqual(model.diagnostics, []);
			assert.equal(model.entries.length, 12);
		} finally {
			dir.remove();
		}
	});
});

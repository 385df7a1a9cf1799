/**
 * The bounded session fuzz run of `npm test`: a few hundred seeded mutants of the real sessions
 * through every read path, the CLI process on some of them, and the write path's refusal (see
 * `test/support/fuzz/`). The full run is `npm run stress`. A failure prints its seed; reproduce it
 * with `node out/test/stress/run.js fuzz --seed <seed> --count 1` or dump it with
 * `node out/test/stress/dumpMutant.js <seed>`. The first seed is fixed (`PI_CONDENSE_FUZZ_SEED` sets
 * another); fresh seeds are `npm run stress`'s.
 */
import assert from 'node:assert/strict';
import { describeFailure, runFuzz } from '../support/fuzz/fuzzRunner';

const MUTANTS = 300;

describe('session fuzzing (bounded)', function () {
	this.timeout(180_000);

	it(`${MUTANTS} mutants of real sessions: no read path throws or hangs, problems are diagnostics with lines, damaged files are never written`, async () => {
		const baseSeed = Number(process.env['PI_CONDENSE_FUZZ_SEED'] ?? 1000);
		const summary = await runFuzz({ baseSeed, count: MUTANTS, timeoutMs: 30_000, cliEvery: 12, workers: 2 });
		const writes = Object.entries(summary.writes).map(([k, v]) => `${k} ${v}`).join(', ');
		console.log(`      fuzz: ${summary.run} mutants from seed ${baseSeed}, ${summary.cliRuns} CLI runs, ${summary.withDiagnostics} with diagnostics; writes: ${writes}`);
		assert.deepEqual(summary.failures.map(describeFailure), []);
		assert.equal(summary.run, MUTANTS);
		assert.ok(summary.withDiagnostics > MUTANTS / 10, 'the mutants reach the diagnostics');
		assert.ok((summary.writes['refused:diagnostics'] ?? 0) > 0, 'some writes are refused for diagnostics');
		assert.ok(summary.cliRuns >= MUTANTS / 12 - 1);
	});
});

describe('fuzz watchdog', function () {
	this.timeout(60_000);

	it('reports a hanging or dying worker with its seed and goes on with a fresh one', async () => {
		// The real mutants get the full run's watchdog (a loaded machine must not make one a hang); only the made-up hang is waited out.
		const summary = await runFuzz({ baseSeed: 100, count: 4, timeoutMs: 30_000, cliEvery: 0, simulate: { 101: 'hang', 102: 'crash' }, simulatedHangMs: 1500 });
		assert.equal(summary.run, 4);
		assert.deepEqual(summary.failures.map((f) => [f.seed, f.kind]), [[101, 'hang'], [102, 'crash']]);
		assert.ok(summary.failures.every((f) => f.mutations.length > 0), 'the mutant is described from its seed');
	});
});

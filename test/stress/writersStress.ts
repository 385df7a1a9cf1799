/**
 * The full concurrent-writer run: 1,000 trials of our writer against a simulated Pi appending to
 * the same file (test/support/concurrentWriterTrials.ts), on a drawn seed unless `--seed` is given.
 */
import { describeWriterTrials, runWriterTrials } from '../support/concurrentWriterTrials';
import { stressSeed, type StressArgs, type StressResult } from './stressArgs';

export async function writersStress(args: StressArgs): Promise<StressResult> {
	const count = args.count ?? 1000;
	const seed = stressSeed('writers', args);
	const started = Date.now();
	const summary = await runWriterTrials({
		seed, count,
		onProgress: (done) => {
			if (done % 100 === 0) {
				console.log(`  writers: ${done}/${count} trials`);
			}
		},
	});
	for (const failure of summary.failures.slice(0, 30)) {
		console.log(`  FAIL ${failure}`);
	}
	return {
		line: `writers: ${count} trials (seed ${seed}, trials 0..${count - 1}): ${describeWriterTrials(summary)}; ${summary.failures.length} failure(s) in ${((Date.now() - started) / 1000).toFixed(0)} s`,
		failed: summary.failures.length > 0,
	};
}

/**
 * The full session fuzz run: at least 10,000 mutants, every 20th also through the CLI process.
 */
import { describeFailure, runFuzz } from '../support/fuzz/fuzzRunner';
import { stressSeed, type StressArgs, type StressResult } from './stressArgs';

export async function fuzzStress(args: StressArgs): Promise<StressResult> {
	const count = args.count ?? 10_000;
	const baseSeed = stressSeed('fuzz', args);
	const started = Date.now();
	let lastReport = started;
	const summary = await runFuzz({
		baseSeed, count, timeoutMs: 30_000, cliEvery: args.count === 1 ? 1 : 20, workers: args.workers ?? 2,
		onProgress: (done) => {
			if (Date.now() - lastReport > 15_000) {
				lastReport = Date.now();
				console.log(`  fuzz: ${done}/${count} mutants`);
			}
		},
	});
	for (const failure of summary.failures.slice(0, 50)) {
		console.log(`  FAIL ${describeFailure(failure)}`);
	}
	const seeds = [...new Set(summary.failures.map((f) => f.seed))];
	const writes = Object.entries(summary.writes).sort().map(([k, v]) => `${k} ${v}`).join(', ');
	return {
		line: `fuzz: ${summary.run} mutants (seeds ${baseSeed}..${baseSeed + count - 1}), ${summary.cliRuns} CLI runs, ${summary.withDiagnostics} with diagnostics; writes: ${writes}; ${seeds.length} failing seed(s)${seeds.length > 0 ? `: ${seeds.slice(0, 20).join(', ')}` : ''} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
		failed: seeds.length > 0,
	};
}

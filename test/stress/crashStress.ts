/**
 * The full crash-safety run: 1,000 kills of a flush (`now` or `compact`) on real sessions, each
 * resumed and held against what the release does on the partial file, and 400 kills of the writer
 * alone (280 with entries of a few KB, 120 with some of a few MB, where kills also land inside
 * write(2)).
 */
import { runCrashTrials, type CrashSummary } from '../support/crash/crashHarness';
import { runFlushCrashTrials } from '../support/crash/flushCrashHarness';
import { stressSeed, type StressArgs, type StressResult } from './stressArgs';

export async function crashStress(args: StressArgs): Promise<StressResult> {
	const flushTrials = args.count ?? 1000;
	const writerTrials = Math.round(flushTrials * 0.4);
	const baseSeed = stressSeed('crash', args);
	const hugeTrials = Math.round(writerTrials * 0.3);
	const progress = (label: string, total: number) => (done: number): void => {
		if (done % 100 === 0) {
			console.log(`  crash (${label}): ${done}/${total} trials`);
		}
	};
	const flush = await runFlushCrashTrials({ baseSeed, trials: flushTrials, onProgress: progress('flush', flushTrials) });
	const small = await runCrashTrials({ baseSeed, trials: writerTrials - hugeTrials, hugeLines: false, onProgress: progress('writer, KB lines', writerTrials - hugeTrials) });
	const huge = await runCrashTrials({ baseSeed: baseSeed + writerTrials, trials: hugeTrials, hugeLines: true, onProgress: progress('writer, MB lines', hugeTrials) });
	const failures = [...flush.failures, ...small.failures, ...huge.failures];
	for (const failure of failures.slice(0, 30)) {
		console.log(`  FAIL ${failure}`);
	}
	const describe = (summary: Pick<CrashSummary, 'outcomes'>): string => Object.entries(summary.outcomes).map(([k, v]) => `${k} ${v}`).join(', ');
	return {
		line: `crash: ${flushTrials} flush kill trials (seeds ${baseSeed}..${baseSeed + flushTrials - 1}): ${describe(flush)} (${flush.linesBeforeKill} lines written before the kills; `
			+ `${flush.leftChainsForCompact} trial(s) whose resumed now left chains for compact, as the release leaves them); `
			+ `${writerTrials} writer kill trials: KB lines: ${describe(small)}; MB lines: ${describe(huge)}; ${failures.length} failure(s)`,
		failed: failures.length > 0,
	};
}

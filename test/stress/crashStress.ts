/**
 * The full crash-safety run: 1,000 kill trials (700 with entries of a few KB, 300 with some of a
 * few MB, where kills also land inside write(2)).
 */
import { runCrashTrials, type CrashSummary } from '../support/crash/crashHarness';
import type { StressArgs, StressResult } from './stressArgs';

export async function crashStress(args: StressArgs): Promise<StressResult> {
	const trials = args.count ?? 1000;
	const baseSeed = args.seed ?? Math.floor(Math.random() * 2 ** 31);
	const hugeTrials = Math.round(trials * 0.3);
	const progress = (label: string, total: number) => (done: number): void => {
		if (done % 100 === 0) {
			console.log(`  crash (${label}): ${done}/${total} trials`);
		}
	};
	const small = await runCrashTrials({ baseSeed, trials: trials - hugeTrials, hugeLines: false, onProgress: progress('KB lines', trials - hugeTrials) });
	const huge = await runCrashTrials({ baseSeed: baseSeed + trials - hugeTrials, trials: hugeTrials, hugeLines: true, onProgress: progress('MB lines', hugeTrials) });
	const failures = [...small.failures, ...huge.failures];
	for (const failure of failures.slice(0, 30)) {
		console.log(`  FAIL ${failure}`);
	}
	const describe = (summary: CrashSummary): string => Object.entries(summary.outcomes).map(([k, v]) => `${k} ${v}`).join(', ');
	return {
		line: `crash: ${trials} kill trials (seeds ${baseSeed}..${baseSeed + trials - 1}): KB lines: ${describe(small)}; MB lines: ${describe(huge)}; ${failures.length} failure(s)`,
		failed: failures.length > 0,
	};
}

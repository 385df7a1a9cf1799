/**
 * Undo Last Prune under the same stress as the writer: 1,000 undos racing a simulated Pi that
 * appends to the same file (test/support/undoTrials.ts), and 400 undo processes killed with SIGKILL
 * at random moments (test/support/crash/undoCrashHarness.ts), on a drawn seed unless `--seed` is given.
 */
import { runUndoCrashTrials } from '../support/crash/undoCrashHarness';
import { describeUndoTrials, runUndoTrials } from '../support/undoTrials';
import { stressSeed, type StressArgs, type StressResult } from './stressArgs';

export async function undoStress(args: StressArgs): Promise<StressResult> {
	const count = args.count ?? 1000;
	const kills = Math.round(count * 0.4);
	const seed = stressSeed('undo', args);
	const started = Date.now();
	const progress = (label: string, total: number) => (done: number): void => {
		if (done % 100 === 0) {
			console.log(`  undo (${label}): ${done}/${total} trials`);
		}
	};
	const trials = await runUndoTrials({ seed, count, onProgress: progress('concurrent Pi', count) });
	const crashes = await runUndoCrashTrials({ baseSeed: seed, trials: kills, onProgress: progress('kills', kills) });
	const failures = [...trials.failures, ...crashes.failures];
	for (const failure of failures.slice(0, 30)) {
		console.log(`  FAIL ${failure}`);
	}
	for (const race of trials.residualRaces.slice(0, 10)) {
		console.log(`  residual race: ${race}`);
	}
	return {
		line: `undo: ${count} trials against a concurrent simulated Pi (seed ${seed}): ${describeUndoTrials(trials)}; ${kills} undo kills: our lines kept ${crashes.outcomes.kept}, removed ${crashes.outcomes.removed}; `
			+ `${failures.length} failure(s) in ${((Date.now() - started) / 1000).toFixed(0)} s`,
		failed: failures.length > 0,
	};
}

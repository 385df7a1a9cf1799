/**
 * `npm run stress`: the reliability suite at full size, one summary line per item. Exits 1 if any
 * item failed. See `stressArgs.ts` for running one item or reproducing one seed.
 */
import { adversarialStress } from './adversarialStress';
import { crashStress } from './crashStress';
import { fuzzStress } from './fuzzStress';
import { watcherStress } from './watcherStress';
import { undoStress } from './undoStress';
import { writersStress } from './writersStress';
import { parseStressArgs, type StressArgs, type StressItem, type StressResult } from './stressArgs';

const RUNNERS: Record<StressItem, (args: StressArgs) => Promise<StressResult>> = {
	fuzz: fuzzStress,
	crash: crashStress,
	watcher: watcherStress,
	writers: writersStress,
	undo: undoStress,
	adversarial: adversarialStress,
};

async function main(): Promise<number> {
	const args = parseStressArgs(process.argv.slice(2));
	const lines: string[] = [];
	let failed = false;
	for (const item of args.items) {
		console.log(`\n## ${item}`);
		const result = await RUNNERS[item](args);
		console.log(result.line);
		lines.push(result.line);
		failed ||= result.failed;
	}
	console.log(`\n## Summary\n${lines.join('\n')}`);
	return failed ? 1 : 0;
}

main().then((code) => {
	process.exitCode = code;
}, (error: unknown) => {
	console.error(error);
	process.exitCode = 1;
});

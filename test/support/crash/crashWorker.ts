/**
 * The process the crash harness kills: appends one trial's entries to a session file with the
 * real writer (`writeEntriesToSession`), pausing after each line. Prints `W` when the first line is
 * about to be written and `D` when done.
 * Usage: node out/test/support/crash/crashWorker.js <session.jsonl> <seed> <hugeLines 0|1>
 */
import { writeSync } from 'node:fs';
import { writeEntriesToSession } from '../../../src/node/write';
import { CRASH_CLOCK, crashPlan, crashRandomBytes } from './crashPlan';
import { testWork } from '../testWork';

const [path = '', seedText = '0', huge = '0'] = process.argv.slice(2);
const seed = Number(seedText);
const plan = crashPlan(seed, { hugeLines: huge === '1' });
const pause = new Int32Array(new SharedArrayBuffer(4));

writeEntriesToSession(testWork, path, plan.drafts, {
	quietMs: 0,
	maxWaitMs: 0,
	checkPiHolders: () => Promise.resolve({ checked: true, holders: [] }),
	randomBytes: crashRandomBytes(seed),
	clock: CRASH_CLOCK,
	hooks: {
		afterLastCheck: () => writeSync(1, 'W'),
		afterLine: () => Atomics.wait(pause, 0, 0, plan.pauseMs),
	},
}).then((result) => {
	writeSync(1, result.kind === 'written' ? 'D' : `R${JSON.stringify(result)}`);
}, (error: unknown) => {
	writeSync(2, String(error));
	process.exitCode = 1;
});

// Mocha plugin of every suite (.mocharc.json `require`): after the last test, anything a test or hook opened
// and never closed is named and the run exits with status 1, instead of mocha waiting on it forever.
import { killChildrenSince, openNow, stillOpenAfter } from './openHandles.mjs';

let baseline;

export function mochaGlobalSetup() {
	baseline = openNow();
}

export async function mochaGlobalTeardown() {
	const open = await stillOpenAfter(baseline);
	if (open) {
		console.error(`\n[leak guard] ${open}\n[leak guard] something a test or hook opened was never closed: killing the child processes named above and exiting with status 1 instead of waiting`);
		killChildrenSince(baseline);
		process.exit(1);
	}
}

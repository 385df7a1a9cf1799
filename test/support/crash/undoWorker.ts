/**
 * The process the undo crash trials kill: runs Undo Last Prune (`undoAppend`) on a session file,
 * printing `W` right after the last-moment check (the truncation follows at once) and `D` when done.
 * Usage: node out/test/support/crash/undoWorker.js <session.jsonl> <written bytes as JSON> <pause ms before the check>
 */
import { writeSync } from 'node:fs';
import { undoAppend } from '../../../src/node/write';
import type { WrittenBytes } from '../../../src/node/write';

const [path = '', writtenJson = '{}', pauseText = '0'] = process.argv.slice(2);
const pause = new Int32Array(new SharedArrayBuffer(4));

undoAppend(path, JSON.parse(writtenJson) as WrittenBytes, {
	checkPiHolders: () => Promise.resolve({ checked: true, holders: [] }),
	hooks: {
		beforeLastCheck: () => Atomics.wait(pause, 0, 0, Number(pauseText)),
		afterLastCheck: () => writeSync(1, 'W'),
	},
}).then((result) => {
	writeSync(1, result.kind === 'undone' ? 'D' : `R${JSON.stringify(result)}`);
}, (error: unknown) => {
	writeSync(2, String(error));
	process.exitCode = 1;
});

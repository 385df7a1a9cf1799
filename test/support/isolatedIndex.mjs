// Mocha plugin of every suite (.mocharc.json `require`): the command line run by a test keeps its session index
// in a temporary folder of this run ($PI_CONDENSE_INDEX), never in the user's cache folder; removed at the end.
// A test that wants another index sets PI_CONDENSE_INDEX or passes --index itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let folder;

export function mochaGlobalSetup() {
	if (process.env.PI_CONDENSE_INDEX === undefined) {
		folder = mkdtempSync(join(tmpdir(), 'pi-condense-test-index-'));
		process.env.PI_CONDENSE_INDEX = join(folder, 'session-index.sqlite');
	}
}

export function mochaGlobalTeardown() {
	if (folder !== undefined) {
		rmSync(folder, { recursive: true, force: true });
	}
}

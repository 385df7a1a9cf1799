/**
 * The lint rule that keeps long passes off the extension host and Pi's process (lint/noWholePass.mjs),
 * run by ESLint with the repository's own configuration on code given in place of files of src/host,
 * src/node, bridge/ and src/engine (type-aware lint reads only the files of the project): a host, Node
 * or bridge file may not import or call `runSteps` nor drain a `*Steps` generator by hand; the engine
 * (and a generator of values anywhere) may, and so does the one slicer (src/work/slicer.ts).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { repoRoot } from '../../support/paths';

const RULE = 'local/no-whole-pass';

/** The messages of our rule for `code` linted as if it were `file` (a file of the repository). */
async function ruleMessages(eslint: ESLint, file: string, code: string): Promise<string[]> {
	const [result] = await eslint.lintText(code, { filePath: join(repoRoot, file) });
	return (result?.messages ?? []).filter((message) => message.ruleId === RULE || message.fatal === true).map((message) => `${message.line}: ${message.message}`);
}

const HOST_CODE = `import { getBranchSteps } from '../engine/session/branch';
import { runSteps } from '../engine/steps';
import type { SessionModel } from '../engine/session/model';

export function atOnce(model: SessionModel): number {
	return runSteps(getBranchSteps(model)).length;
}

export function drained(model: SessionModel): number {
	const steps = getBranchSteps(model);
	let next = steps.next();
	while (!next.done) {
		next = steps.next();
	}
	return next.value.length + [...getBranchSteps(model)].length;
}

export function* values(): Generator<string> {
	yield 'a';
}

export function listed(): string[] {
	return [...values()];
}
`;

describe('lint: no long pass run at once in src/host, src/node and bridge/', function () {
	// Type-aware lint builds the TypeScript program of the repository first.
	this.timeout(180_000);
	const eslint = new ESLint({ cwd: repoRoot });

	it('reports runSteps and a generator drained by hand in the host, not a generator of values', async () => {
		const messages = await ruleMessages(eslint, 'src/host/selectedInsight.ts', HOST_CODE);
		assert.deepEqual(messages.map((message) => message.split(':')[0]), ['2', '6', '11', '13', '15']);
		assert.match(messages[0] ?? '', /scope\.sliced/);
	});

	it('reports the same in src/node', async () => {
		const messages = await ruleMessages(eslint, 'src/node/store/rowReclaim.ts', HOST_CODE.replaceAll('../engine/', '../../engine/'));
		assert.equal(messages.length, 5);
	});

	it('reports the same in the bridge, which runs inside Pi', async () => {
		const messages = await ruleMessages(eslint, 'bridge/requestCapture.ts', HOST_CODE.replaceAll('../engine/', '../src/engine/'));
		assert.equal(messages.length, 5);
	});

	it('leaves the engine and the one slicer alone', async () => {
		assert.deepEqual(await ruleMessages(eslint, 'src/engine/views/statusLine.ts', HOST_CODE.replaceAll('../engine/', '../')), []);
		assert.deepEqual(await ruleMessages(eslint, 'src/work/slicer.ts', HOST_CODE), []);
	});
});

/**
 * The running-work layer keeps its shape (eslint.config.mjs), checked with the repository's own
 * configuration on code given in place of its files: outside src/work the layer is imported through
 * its index, which does not export the slicer, so a long pass cannot be run without a scope's signal
 * (in the host, the Node layer, the command line and the bridge alike); inside, src/work imports
 * nothing of ours but the engine's steps; and the engine does not import it.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { repoRoot } from '../../support/paths';

const RULE = 'no-restricted-imports';

async function importMessages(eslint: ESLint, file: string, code: string): Promise<string[]> {
	const [result] = await eslint.lintText(code, { filePath: join(repoRoot, file) });
	return (result?.messages ?? []).filter((message) => message.ruleId === RULE || message.fatal === true).map((message) => message.message);
}

/** A bare slicer (the layer's own file), and the layer through its index. */
const bareSlicer = (up: string): string => `import { runSliced } from '${up}work/slicer';
import { WorkScope } from '${up}work';

export const slicers = [runSliced, WorkScope];
`;

describe('lint: the running-work layer', function () {
	this.timeout(180_000);
	const eslint = new ESLint({ cwd: repoRoot });

	it('refuses the bare slicer outside src/work, in every layer that runs work and in the bridge', async () => {
		for (const [file, up] of [['src/host/selectedInsight.ts', '../'], ['src/node/store/rowReclaim.ts', '../../'], ['src/cli/runCommand.ts', '../'], ['bridge/bridgeRuntime.ts', '../src/']] as const) {
			const messages = await importMessages(eslint, file, bareSlicer(up));
			assert.equal(messages.length, 1, `${file}: ${messages.join('; ')}`);
			assert.match(messages[0] ?? '', /through src\/work/);
		}
	});

	it('lets src/work use its own files and the engine\'s steps, nothing else of ours; the engine does not import it', async () => {
		assert.deepEqual(await importMessages(eslint, 'src/work/latestWins.ts', "import { runSliced } from './slicer';\nimport type { Steps } from '../engine/steps';\nexport const used: [typeof runSliced, Steps<number> | undefined] = [runSliced, undefined];\n"), []);
		const outward = await importMessages(eslint, 'src/work/latestWins.ts', "import { errorMessage } from '../base/errorMessage';\nimport { SessionStore } from '../node/store/sessionStore';\nimport { toEntry } from '../engine/session/parseEntry';\nexport const used = [errorMessage, SessionStore, toEntry];\n");
		assert.equal(outward.length, 2, outward.join('; '));
		const engine = await importMessages(eslint, 'src/engine/views/statusLine.ts', "import { WorkScope } from '../../work';\nexport const used = WorkScope;\n");
		assert.equal(engine.length, 1, engine.join('; '));
	});
});

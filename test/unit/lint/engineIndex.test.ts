/**
 * Outside the engine, each of its folders is reached through its index.ts (eslint.config.mjs), checked
 * with the repository's own configuration on code given in place of files of each outer layer: a deep
 * import into a folder is refused, the folder's index and a file at the engine's root are not, and
 * the engine's own files import one another freely.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { repoRoot } from '../../support/paths';

async function importMessages(eslint: ESLint, file: string, code: string): Promise<string[]> {
	const [result] = await eslint.lintText(code, { filePath: join(repoRoot, file) });
	return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports' || message.fatal === true).map((message) => message.message);
}

const code = (up: string): string => `import { toEntry } from '${up}engine/session/parseEntry';
import { getBranchSteps } from '${up}engine/session';
import type { Steps } from '${up}engine/steps';

export const used: [unknown, unknown, Steps<number> | undefined] = [toEntry, getBranchSteps, undefined];
`;

describe('lint: the engine through its folders\' index.ts', function () {
	this.timeout(180_000);
	const eslint = new ESLint({ cwd: repoRoot });

	it('refuses a deep import in every outer layer, and only that one', async () => {
		const layers = [
			['src/node/store/rowReclaim.ts', '../../'], ['src/host/selectedInsight.ts', '../'], ['src/cli/runCommand.ts', '../'],
			['src/shared/protocol.ts', '../'], ['bridge/bridgeRuntime.ts', '../src/'], ['src/extension.ts', './'],
		] as const;
		for (const [file, up] of layers) {
			const messages = await importMessages(eslint, file, code(up));
			assert.equal(messages.length, 1, `${file}: ${messages.join('; ')}`);
			assert.match(messages[0] ?? '', /through its folders' index\.ts/);
		}
	});

	it('lets the engine\'s own files import any file of it', async () => {
		assert.deepEqual(await importMessages(eslint, 'src/engine/views/statusLine.ts', code('../')), []);
	});
});

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describePruneSettingsProblem } from '../../../../src/engine/config/settingsProblems';
import { readPruneSettings } from '../../../../src/node/settings/readPruneSettings';
import { settingsProblemMessages } from '../../../../src/engine/views/problemMessages';
import { useTempDir } from '../../../support/tempDirs';
import { defaults, LATEST } from '../../../support/releases';

const DEFAULT_CONFIG = defaults(LATEST);

describe('readPruneSettings', () => {
	const temp = useTempDir('read-settings');
	const write = (content: string): void => writeFileSync(join(temp(), 'settings.json'), content);

	it('gives the defaults when settings.json is missing', async () => {
		const result = await readPruneSettings(join(temp(), 'no-such-agent'), LATEST);
		assert.deepEqual(result.config, DEFAULT_CONFIG);
		assert.deepEqual(result.fileState, { kind: 'missing' });
		assert.equal(result.path, join(temp(), 'no-such-agent', 'settings.json'));
	});

	it('treats an empty file as {} like Pi', async () => {
		write('');
		const result = await readPruneSettings(temp(), LATEST);
		assert.deepEqual(result.fileState, { kind: 'empty' });
		assert.deepEqual(result.config, DEFAULT_CONFIG);
	});

	it('says where invalid JSON breaks, and falls back to the defaults', async () => {
		write('{\n  "theme": "dark",\n  "contextPrune": { "enabled": true, }\n}');
		const result = await readPruneSettings(temp(), LATEST);
		assert.equal(result.fileState.kind, 'invalid-json');
		assert.ok(result.fileState.kind === 'invalid-json');
		assert.equal(result.fileState.line, 3);
		assert.equal(result.fileState.column, 38);
		assert.deepEqual(result.config, DEFAULT_CONFIG);
	});

	it('points at a bad literal even where V8 names no position (jsonc-parser finds it)', async () => {
		write('{"contextPrune": {"enabled": tru}}');
		const { fileState } = await readPruneSettings(temp(), LATEST);
		assert.ok(fileState.kind === 'invalid-json');
		assert.deepEqual([fileState.line, fileState.column], [1, 30]);
		assert.doesNotMatch(fileState.message, /contextPrune/, 'the message does not quote the file');
	});

	it('reports a file that is not an object, and a contextPrune of the wrong type', async () => {
		write('[1]');
		assert.deepEqual((await readPruneSettings(temp(), LATEST)).fileState, { kind: 'not-object', found: 'an array' });
		write('{"contextPrune": "on"}');
		const wrong = await readPruneSettings(temp(), LATEST);
		assert.deepEqual(wrong.fileState, { kind: 'prune-not-object', found: 'a string' });
		// One problem, the file's: not also an "expected an object" value problem (it was shown twice).
		assert.equal(wrong.problems.length, 0);
		assert.deepEqual(settingsProblemMessages(wrong).map((problem) => problem.message), [describePruneSettingsProblem(wrong.path, wrong.fileState)]);
		assert.deepEqual(wrong.config, DEFAULT_CONFIG);
	});

	it('resolves a partial, partly invalid contextPrune with its problems', async () => {
		write(JSON.stringify({ theme: 'dark', contextPrune: { enabled: true, purgeErrors: { cooldownTurns: -2 }, extra: 1 } }, null, 2));
		const result = await readPruneSettings(temp(), LATEST);
		assert.deepEqual(result.fileState, { kind: 'ok' });
		assert.equal(result.config.enabled, true);
		assert.deepEqual(result.config.purgeErrors, DEFAULT_CONFIG.purgeErrors);
		assert.deepEqual(result.problems.map((p) => p.key), ['purgeErrors.cooldownTurns', 'purgeErrors.enabled', 'purgeErrors.minArgChars']);
		assert.deepEqual(result.raw, { enabled: true, purgeErrors: { cooldownTurns: -2 }, extra: 1 });
	});
});

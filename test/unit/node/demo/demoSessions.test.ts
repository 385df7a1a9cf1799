/**
 * The demo sessions are written through our own writers and flush: they must read back cleanly
 * with Pi's own SessionManager and show every mechanism the extension displays.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildCondenseStateSteps, capturePendingBatchesSteps, previewFromStateSteps } from '../../../../src/engine/condense';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../../src/engine/session';
import { writeDemoSessions } from '../../../../src/node/demo/writeDemoSessions';
import { readPruneSettings } from '../../../../src/node/settings/readPruneSettings';
import { readWithPi } from '../../../support/pi';
import { useTempDir } from '../../../support/tempDirs';
import { WRITER_RELEASE } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';
import { testWork } from '../../../support/testWork';

describe('demo sessions', function () {
	this.timeout(60000);
	const tempDir = useTempDir('pi-condense-demo');

	it('are valid v3 sessions that Pi 0.73.1 reads exactly as we do', async () => {
		const { sessionFiles } = await writeDemoSessions(testWork, tempDir(), WRITER_RELEASE);
		assert.equal(sessionFiles.length, 2);
		for (const file of sessionFiles) {
			const text = readFileSync(file, 'utf8');
			const ours = runSteps(parseSessionSteps(text));
			assert.deepEqual(ours.diagnostics, [], file);
			assert.equal(ours.version, 3);
			const pi = await readWithPi(text);
			assert.deepStrictEqual(runSteps(buildSessionContextSteps(ours)).messages, pi.context.messages, file);
			assert.deepStrictEqual(ours.entries.map((entry) => entry.id), pi.entries.map((entry) => entry.id));
			assert.equal(ours.leafId, pi.leafId);
		}
	});

	it('show summaries, an alias, purged arguments, two compressed chains and pending work', async () => {
		const agentDir = tempDir();
		const { sessionFiles } = await writeDemoSessions(testWork, agentDir, WRITER_RELEASE);
		const file = sessionFiles[0] ?? '';
		const model = runSteps(parseSessionSteps(readFileSync(file, 'utf8')));
		const { config, problems } = await readPruneSettings(agentDir, WRITER_RELEASE);
		assert.equal(config.enabled, true);
		assert.deepEqual(problems, [], 'every block written whole: Pi (a shallow merge) reads the same settings');
		const branch = runSteps(getBranchSteps(model));
		const state = runSteps(buildCondenseStateSteps(branch, WRITER_RELEASE));
		const preview = runSteps(previewFromStateSteps(state, runSteps(buildSessionContextSteps(model)).messages, config, WRITER_RELEASE));
		const texts = preview.after.map((message) => JSON.stringify(message));
		const count = (pattern: RegExp) => texts.filter((text) => pattern.test(text)).length;
		assert.equal(count(/<compressed-chain id=\\"b1\\" tools=\\"t1,t2,t3,t4\\">/), 1, 'b1 fuses the first two summaries');
		assert.equal(count(/<compressed-chain id=\\"b2\\" tools=\\"t5\\">/), 1, 'b2 holds the changelog summary');
		assert.equal(count(/Summarized in pruner summary, ref `t3`/), 1, 'the re-read is an alias of t3');
		assert.equal(count(/_purged/), 1, 'the failed edit\'s large arguments are purged');
		assert.equal(count(/"thinking"/) > 0, true, 'thinking blocks are kept (no thinking strip from 2.5.0)');
		assert.equal(runSteps(capturePendingBatchesSteps(branch, state, config)).length, 1, 'the last prompt\'s grep is still pending');
		assert.ok(preview.reclaim && preview.reclaim.afterChars < preview.reclaim.beforeChars);
		// A flush spills nothing itself (the release spills at turn_end only): no blobs folder.
		assert.equal(existsSync(join(dirname(file), `${model.header?.id ?? ''}-blobs`)), false);
	});

	it('leave an existing contextPrune configuration alone', async () => {
		const agentDir = tempDir();
		await writeDemoSessions(testWork, agentDir, WRITER_RELEASE);
		const before = readFileSync(join(agentDir, 'settings.json'), 'utf8');
		await writeDemoSessions(testWork, agentDir, WRITER_RELEASE);
		assert.equal(readFileSync(join(agentDir, 'settings.json'), 'utf8'), before);
	});
});

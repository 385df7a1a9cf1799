/**
 * The one spill a flush makes (2.9.0+): `compact` backfills the records of a chain no summary
 * covers, and a result of at least `spillThreshold` characters goes to `<sessionId>-blobs/`, named
 * after its occurrence key with anything outside `[A-Za-z0-9_-]` replaced (a crafted tool-call id
 * cannot leave the folder). The record keeps the byte count, a head preview and the content hash;
 * recovery returns the whole body from the blob. Before 2.9.0 the same compaction writes nothing.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildCondenseStateSteps, rawOutput, recoverOutputs } from '../../../../src/engine/condense';
import { toolResultHash } from '../../../../src/engine/flush';
import { getBranchSteps, parseSessionSteps } from '../../../../src/engine/session';
import { sessionBlobReader } from '../../../../src/node/condense/sessionBlobReader';
import { flushSession } from '../../../../src/node/flush/flushSession';
import { sha1Hex } from '../../../../src/node/flush/sha1Hasher';
import { useFlushEnvironment } from '../../../support/flushEnvironment';
import { output } from '../../../support/flushFixtures';
import { LATEST } from '../../../support/releases';
import { SessionBuilder, text, toolCall } from '../../../support/sessionBuilder';
import { runSteps } from '../../../../src/engine/steps';
import { releaseRules } from '../../../../src/engine/release/releases';
import { testWork } from '../../../support/testWork';

describe('flush: the 2.9.0 backfill spills to blob files', function () {
	this.timeout(30000);
	const env = useFlushEnvironment({ text: '- nothing is summarized here' });
	const id = '01a231fd-e18c-77ad-9d6d-56d04e291711';
	const huge = output('huge', 1024 * 1024);
	const crafted = output('crafted', 80_000);

	function session(name: string): string {
		const builder = new SessionBuilder({ id });
		builder.user('Fetch everything.');
		builder.assistant([toolCall('big1', 'bash', { command: 'cat huge.log' }), toolCall('../../x', 'bash', { command: 'cat crafted.log' }), toolCall('small', 'read', { path: 'a.ts' })]);
		builder.toolResult('big1', 'bash', huge);
		builder.toolResult('../../x', 'bash', crafted);
		builder.toolResult('small', 'read', output('small', 1200));
		builder.assistant([text('All fetched.')]);
		builder.user('Thanks.');
		builder.assistant([text('You are welcome.')]);
		return env.dir.file(name, builder.text());
	}

	it('spills the big results of an uncovered chain under occurrence-key names, inside the folder, and recovers them', async () => {
		const path = session('s.jsonl');
		const blobs = join(env.dir.path, `${id}-blobs`);
		const result = await flushSession(testWork, env.request(path, { mode: 'compact', rules: LATEST }));
		assert.equal(result.kind, 'written', result.message);
		const names = readdirSync(blobs).sort();
		assert.equal(names.length, 2, names.join(', '));
		assert.match(names[0] ?? '', /^______x_\d+\.txt$/);
		assert.match(names[1] ?? '', /^big1_\d+\.txt$/);
		assert.equal(existsSync(join(dirname(env.dir.path), 'x.txt')), false);

		const model = runSteps(parseSessionSteps(readFileSync(path, 'utf8')));
		const added = model.entries.flatMap((e) => (e.type === 'custom' ? [e.customType] : []));
		assert.deepEqual(added, ['context-prune-index', 'context-prune-chain', 'context-prune-stats']);
		const state = runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(model)), LATEST));
		const big = [...state.records.values()].find((occurrence) => occurrence.record.toolCallId === 'big1')?.record;
		assert.ok(big);
		assert.equal(big.resultText, '');
		assert.equal(big.spillPath, join(blobs, names[1] ?? ''));
		assert.equal(big.spillBytes, Buffer.byteLength(huge));
		assert.equal(big.contentHash, toolResultHash(sha1Hex, 'bash', huge));
		assert.ok(huge.startsWith(big.resultPreview ?? '\u0000'));
		const reader = sessionBlobReader(path, id);
		assert.equal(await rawOutput(big, reader), huge);
		const recovered = await recoverOutputs(state, ['../../x'], reader);
		assert.match(recovered.text, /crafted line 1/);
		assert.equal(env.server.requests.length, 0, 'a deterministic chain calls no model');
	});

	it('writes nothing and spills nothing before 2.9.0 (the chain has no summary: skipped)', async () => {
		const path = session('old.jsonl');
		const before = readFileSync(path, 'utf8');
		const blobs = join(env.dir.path, `${id}-blobs`);
		const blobCount = (): number => (existsSync(blobs) ? readdirSync(blobs).length : 0);
		const blobsBefore = blobCount();
		const result = await flushSession(testWork, env.request(path, { mode: 'compact', rules: releaseRules('2.8.0') }));
		assert.equal(result.kind, 'nothing', result.message);
		assert.equal(readFileSync(path, 'utf8'), before);
		assert.equal(blobCount(), blobsBefore);
	});
});

/**
 * Eager spill on real files: a 1 MB tool result goes to `<sessionId>-blobs/`, its record keeps a
 * byte-capped head preview and the content hash, recovery returns the whole body from the blob, a
 * large duplicate becomes an alias without a second file, and a crafted tool-call id cannot put a
 * file outside the blobs folder.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildCondenseState, rawOutput, recoverOutputs, renderContext } from '../../../../src/engine/condense';
import { buildSessionContext, getBranch, parseSession } from '../../../../src/engine/session';
import { flushSession } from '../../../../src/node/flush/flushSession';
import { sha1Hex } from '../../../../src/node/flush/sha1Hasher';
import { toolResultHash } from '../../../../src/engine/flush';
import { sessionBlobReader } from '../../../../src/node/condense/sessionBlobReader';
import { useFlushEnvironment } from '../../../support/flushEnvironment';
import { flushConfig, output } from '../../../support/flushFixtures';
import { SessionBuilder, text, toolCall } from '../../../support/sessionBuilder';
import { WRITER_RELEASE } from '../../../support/releases';

describe('flush: eager spill to blob files', function () {
	this.timeout(30000);
	const env = useFlushEnvironment({ text: '- [[1:read]] read the small file' });

	it('spills a 1 MB result, aliases its duplicate, keeps a crafted id inside the folder, and recovers the body', async () => {
		const huge = output('huge', 1024 * 1024);
		const crafted = output('crafted', 80_000);
		const id = '01a231fd-e18c-77ad-9d6d-56d04e291711';
		const builder = new SessionBuilder({ id });
		builder.user('Fetch everything.');
		builder.assistant([toolCall('big1', 'bash', { command: 'cat huge.log' }), toolCall('../../x', 'bash', { command: 'cat crafted.log' }), toolCall('small', 'read', { path: 'a.ts' })]);
		builder.toolResult('big1', 'bash', huge);
		builder.toolResult('../../x', 'bash', crafted);
		builder.toolResult('small', 'read', output('small', 1200));
		builder.assistant([toolCall('big2', 'bash', { command: 'cat huge.log' })]);
		builder.toolResult('big2', 'bash', `${huge}\n\n`);
		builder.assistant([text('All fetched.')]);
		const path = env.dir.file('s.jsonl', builder.text());
		const blobs = join(env.dir.path, `${id}-blobs`);

		const result = await flushSession(env.request(path));
		assert.equal(result.kind, 'written', result.message);
		assert.ok(result.notices.includes(`pruner: spilled 2 oversized tool results (${Buffer.byteLength(huge) + Buffer.byteLength(crafted)} bytes) to the session's blobs folder; no LLM call made`), result.notices.join('\n'));
		assert.deepEqual(readdirSync(blobs).sort(), ['______x.txt', 'big1.txt']);
		assert.deepEqual(readdirSync(env.dir.path).sort(), [`${id}-blobs`, 's.jsonl']);
		assert.equal(existsSync(join(dirname(env.dir.path), 'x.txt')), false);
		assert.equal(readFileSync(join(blobs, 'big1.txt'), 'utf8'), huge);
		assert.equal(readFileSync(join(blobs, '______x.txt'), 'utf8'), crafted);

		const model = parseSession(readFileSync(path, 'utf8'));
		const added = model.entries.filter((e) => e.type === 'custom' || e.type === 'custom_message').map((e) => (e.type === 'custom' || e.type === 'custom_message' ? e.customType : ''));
		assert.deepEqual(added, ['context-prune-index', 'context-prune-dedup-alias', 'context-prune-summary', 'context-prune-index', 'context-prune-frontier', 'context-prune-stats']);
		// Our writer's records carry no result timestamp: a release keying by occurrence files them under the bare id too.
		const state = buildCondenseState(getBranch(model), WRITER_RELEASE);
		const big = state.records.get('big1')?.record;
		assert.ok(big);
		assert.equal(big.resultText, '');
		assert.equal(big.spillPath, join(blobs, 'big1.txt'));
		assert.equal(big.spillBytes, Buffer.byteLength(huge));
		assert.equal(big.contentHash, toolResultHash(sha1Hex, 'bash', huge));
		assert.ok(Buffer.byteLength(big.resultPreview ?? '') <= 2048 && huge.startsWith(`${big.resultPreview ?? ''}\n`));
		assert.equal([...state.aliases.values()][0]?.originalToolCallId, 'big1');

		const reader = sessionBlobReader(path, id);
		assert.equal(await rawOutput(big, reader), huge);
		const recovered = await recoverOutputs(state, ['big2', '../../x'], reader);
		assert.deepEqual(Object.keys(recovered.results), ['big2', '../../x']);
		assert.match(recovered.text, /^## toolRef: big2\nTool: bash\n/);
		assert.match(recovered.text, /\[Output truncated: \d+\/\d+ lines shown\]/);

		const rendered = renderContext(buildSessionContext(model).messages, state, flushConfig(), WRITER_RELEASE);
		const texts = rendered.flatMap((m) => (m.role === 'toolResult' ? [(m.content[0] as { text: string }).text] : []));
		assert.match(texts[0] ?? '', /^\[Oversized output spilled to file — \d+ bytes\.\]\nTool: bash\nPreview \(head\):\nhuge line 1: /);
		assert.match(texts[0] ?? '', /\nOr use context_tree_query with ref `big1`\.$/);
		assert.equal(texts[2], '[Summarized in pruner summary, ref `t1`. Use context_tree_query to retrieve full output.]');
		assert.match(texts[3] ?? '', /^\[Oversized output spilled to file/, 'the duplicate shows its original\'s spill stub');
		assert.equal(env.server.requests.length, 1, 'only the small read was summarized');
	});
});

/**
 * `now` and `compact` on a session written by real Pi 1.6.0 (pruning off when it was recorded), through
 * the real pi-ai client and the fake server, as pi-condense 2.9.1 flushes: what we append chains after
 * Pi's own entries, and Pi 1.6.0's own SessionManager (on Node >= 22.19, see test/support/pi16.ts) loads
 * the result unchanged, with our entries on its active path, the last one its leaf, and the same context
 * we build. A second `now` finds nothing pending and writes only what 2.9.1 writes then: one
 * `context-prune-flush-metrics` entry recording the empty manual flush.
 */
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCondenseStateSteps, contentText, renderContextSteps, syntheticBlockId } from '../../../../src/engine/condense';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../../src/engine/session';
import { conversationOf } from '../../../../src/engine/session/systemMessages';
import type { ContextMessage } from '../../../../src/engine/session/types';
import { flushSession } from '../../../../src/node/flush/flushSession';
import type { FlushOutcome } from '../../../../src/node/flush/flushOutcome';
import { useFlushEnvironment } from '../../../support/flushEnvironment';
import { flushInvariantViolations } from '../../../support/flushInvariants';
import { promptOf } from '../../../support/fakeLlmServer';
import { labelledOracleReply } from '../../../support/oracleReplies';
import { piCondenseSessionsDir } from '../../../support/paths';
import { readWithPi16 } from '../../../support/pi16';

import { makeOld } from '../../../support/tempSession';
import { referenceConfig } from '../../engine/condense/piReference';
import { runSteps } from '../../../../src/engine/steps';
import { releaseRules } from '../../../../src/engine/release/releases';
import { testWork } from '../../../support/testWork';

const FOLDER = 'noprune-batching-pi-1.6.0';
const R291 = releaseRules('2.9.1');
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** Pi 1.6.0 loads `text` (written at `path`): Pi's own entries unchanged, ours after them, on its active path, the same context as ours. */
async function assertPi16Loads(path: string, original: string): Promise<void> {
	const text = readFileSync(path, 'utf8');
	assert.ok(text.startsWith(original), 'append-only');
	const [before, after] = await readWithPi16([{ text: original }, { path }]);
	assert.ok(before && after);
	assert.equal(after.error, undefined, after.error);
	assert.equal(after.unchanged, true, 'Pi 1.6.0 opens the file without rewriting it');
	assert.deepEqual(after.entries.slice(0, before.entries.length), before.entries);
	const ours = after.entries.slice(before.entries.length);
	assert.ok(ours.length > 0);
	assert.ok(ours.every((entry) => entry.type === 'custom' || entry.type === 'custom_message'), JSON.stringify(ours));
	assert.equal(after.leafId, ours.at(-1)?.id);
	assert.deepEqual(after.branch.slice(-ours.length), ours.map((entry) => entry.id), 'our entries chain after Pi\'s, on its active path');
	const model = runSteps(parseSessionSteps(text));
	assert.deepEqual(model.diagnostics, []);
	assert.deepEqual(asJson(runSteps(buildSessionContextSteps(model)).messages), after.context.messages, 'Pi 1.6.0 builds the context we build');
}

function written(outcome: FlushOutcome): void {
	assert.equal(outcome.kind, 'written', outcome.message);
}

describe('now and compact on a Pi 1.6.0 session, loaded back by Pi 1.6.0', function () {
	this.timeout(300_000);
	const env = useFlushEnvironment({ text: (request) => labelledOracleReply(promptOf(request)) });

	function copyOf(name: string): { path: string; original: string } {
		const path = join(env.dir.path, name);
		copyFileSync(join(piCondenseSessionsDir, FOLDER, 'session.jsonl'), path);
		makeOld(path);
		return { path, original: readFileSync(path, 'utf8') };
	}

	const request = (path: string, mode: 'now' | 'compact') => env.request(path, { mode, rules: R291, config: { ...referenceConfig(FOLDER, R291), summarizerModel: env.agent.modelRef } });

	it('now, compact, then now again: each write is loaded by Pi 1.6.0, and the second now writes only the empty flush\'s metrics', async () => {
		const { path, original } = copyOf('now.jsonl');
		const now = await flushSession(testWork, request(path, 'now'));
		written(now);
		assert.match(now.message, /^pruner: pruned \d+ tool calls from \d+ batches/);
		const lastOfPi = runSteps(parseSessionSteps(original)).leafId;
		assert.equal(now.entries?.[0]?.entry.parentId, lastOfPi, 'the first entry chains to Pi\'s last one');
		await assertPi16Loads(path, original);

		const afterNow = readFileSync(path, 'utf8');
		const model = runSteps(parseSessionSteps(afterNow));
		const config = referenceConfig(FOLDER, R291);
		const rendered = runSteps(renderContextSteps(runSteps(buildSessionContextSteps(model)).messages, runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(model)), R291)), config, R291));
		assert.equal(rendered[0]?.role, 'system', 'Pi sends its prompt first, replayed');
		const results = conversationOf(rendered).filter((message): message is Extract<ContextMessage, { role: 'toolResult' }> => message.role === 'toolResult');
		assert.ok(results.some((message) => /^\[Summarized in pruner summary/.test(contentText(message.content))), 'summarized results are stubs');
		assert.ok(rendered.some((message) => syntheticBlockId(message) !== undefined), 'closed chains beyond the window are compressed');

		const compact = await flushSession(testWork, request(path, 'compact'));
		assert.ok(compact.kind === 'written' || compact.kind === 'nothing', compact.message);
		await assertPi16Loads(path, original);
		const final = readFileSync(path, 'utf8');
		assert.deepEqual(flushInvariantViolations(runSteps(getBranchSteps(runSteps(parseSessionSteps(final))))), []);

		const again = await flushSession(testWork, request(path, 'now'));
		assert.equal(again.message, 'pruner: nothing pending — no batches to summarize');
		const metrics = (again.entries ?? []).map((prepared) => asJson(prepared.entry) as { type: string; customType: string; data: Record<string, unknown> });
		assert.deepEqual(metrics.map((e) => [e.type, e.customType]), [['custom', 'context-prune-flush-metrics']], 'only the flush-metrics entry 2.7.0+ writes for every flush');
		assert.deepEqual(Object.keys(metrics[0]?.data ?? {}), ['ts', 'trigger', 'capturedBatches', 'processedBatches', 'outcome', 'metrics']);
		assert.deepEqual([metrics[0]?.data['trigger'], metrics[0]?.data['capturedBatches'], metrics[0]?.data['processedBatches'], metrics[0]?.data['outcome']], ['manual', 0, 0, 'empty']);
		assert.ok(readFileSync(path, 'utf8').startsWith(final));
		await assertPi16Loads(path, original);
	});

	it('compact alone compresses the closed chains (bodies made without a model, as 2.9.x does) into entries Pi 1.6.0 loads', async () => {
		const { path, original } = copyOf('compact.jsonl');
		const compact = await flushSession(testWork, request(path, 'compact'));
		written(compact);
		await assertPi16Loads(path, original);
		const model = runSteps(parseSessionSteps(readFileSync(path, 'utf8')));
		assert.ok(runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(model)), R291)).chains.length >= 4, 'every closed chain is compressed');
	});
});

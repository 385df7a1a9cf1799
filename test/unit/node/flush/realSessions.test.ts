/**
 * `now` and `compact` on copies of the real migrated sessions, through the real pi-ai client and
 * the fake server: Pi 0.73.1's own SessionManager loads the result with every earlier entry
 * unchanged, our entries on the active path and the last one as leaf; our renderer shows the
 * stubs and the compressed chains; a second `now` finds nothing pending.
 */
import { inProcessSummarizers } from '../../../../src/node/llm/defaultSummarizer';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildCondenseStateSteps, contentText, coverageOf, renderContextSteps, syntheticBlockId } from '../../../../src/engine/condense';
import type { ContextPruneConfig } from '../../../../src/engine/config/types';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../../src/engine/session';
import { flushSession, type FlushSessionRequest } from '../../../../src/node/flush/flushSession';
import { createFakeAgentDir, type FakeAgentDir } from '../../../support/fakeAgentDir';
import { promptOf, startFakeLlmServer, type FakeLlmServer, type RecordedRequest } from '../../../support/fakeLlmServer';
import { flushConfig } from '../../../support/flushFixtures';
import { flushInvariantViolations } from '../../../support/flushInvariants';
import { realSessionsDir } from '../../../support/paths';
import { readWithPi } from '../../../support/pi';
import { bundledLoader, distDir } from '../../../support/piAiForTests';
import { noPiRunning, TempDir } from '../../../support/tempSession';
import { WRITER_RELEASE } from '../../../support/releases';
import { runSteps } from '../../../../src/engine/steps';
import { testWork } from '../../../support/testWork';

/** One short bullet per labelled call, as a model following the prompt would write. */
function labelledReply(request: RecordedRequest): string {
	const prompt = promptOf(request);
	if (prompt.includes('<sub-task-summaries>')) {
		return 'The sub-task read and edited the files named in its steps.';
	}
	const labels = [...prompt.matchAll(/^\[\[(\d+):([^\]\n]+)\]\] Tool: /gm)];
	return labels.map((label) => `- ${label[0].slice(0, label[0].indexOf(']]') + 2)} ${label[2]} done.`).join('\n');
}

describe('flush on real sessions, read back by Pi 0.73.1', function () {
	this.timeout(120000);
	let server: FakeLlmServer;
	let agent: FakeAgentDir;
	let dir: TempDir;

	before(async () => {
		server = await startFakeLlmServer({ text: labelledReply });
		agent = await createFakeAgentDir({ serverUrl: server.url });
	});
	after(async () => {
		// Also after a failed before(): close what it got to open.
		await server?.close();
		await agent?.cleanup();
	});
	beforeEach(() => {
		dir = new TempDir();
	});
	afterEach(() => {
		dir.remove();
	});

	for (const name of ['large-session.migrated-v3.jsonl', 'before-compaction.migrated-v3.jsonl']) {
		it(`${name}: now, compact, now`, async () => {
			const path = join(dir.path, name);
			copyFileSync(join(realSessionsDir, name), path);
			const original = readFileSync(path, 'utf8');
			const piBefore = await readWithPi(original);
			const config = flushConfig({ summarizerModel: agent.modelRef });
			const request: FlushSessionRequest = {
				sessionPath: path, agentDir: agent.dir, mode: 'now', config, rules: WRITER_RELEASE, summarizers: inProcessSummarizers(bundledLoader(distDir)), writeOptions: { quietMs: 0, maxWaitMs: 0, checkPiHolders: noPiRunning },
			};

			const now = await flushSession(testWork, request);
			assert.equal(now.kind, 'written', now.message);
			assert.match(now.message, /^pruner: pruned \d+ tool calls from \d+ batches/);
			const afterNow = readFileSync(path, 'utf8');
			await assertPiReadsOurEntries(original, afterNow, piBefore.entries.length);
			const afterNowView = renderedView(afterNow, config);
			assert.ok(afterNowView.stubs >= 5, `${afterNowView.stubs} stubs`);
			assert.equal(afterNowView.rawCovered, 0, 'every summarized result left in the context is a stub');
			assert.ok(afterNowView.chains > 0);
			assert.equal(afterNowView.chains, afterNowView.compressed, 'every compressed chain is rendered');

			const compact = await flushSession(testWork, { ...request, mode: 'compact' });
			assert.ok(compact.kind === 'written' || compact.kind === 'nothing', compact.message);
			const final = readFileSync(path, 'utf8');
			assert.ok(final.startsWith(afterNow));
			await assertPiReadsOurEntries(original, final, piBefore.entries.length);

			assert.deepEqual(flushInvariantViolations(runSteps(getBranchSteps(runSteps(parseSessionSteps(final))))), []);
			const finalView = renderedView(final, config);
			assert.ok(finalView.chains > afterNowView.chains, `compact compressed more chains (${afterNowView.chains} → ${finalView.chains})`);
			assert.equal(finalView.chains, finalView.compressed);
			assert.equal(finalView.rawCovered, 0, 'every summarized result left in the context is a stub');

			const again = await flushSession(testWork, request);
			assert.equal(again.kind, 'nothing', again.message);
			assert.equal(again.message, 'pruner: nothing pending — no batches to summarize');
			assert.equal(readFileSync(path, 'utf8'), final);
		});
	}
});

/** What our renderer makes of a session: stubs, chains, and summarized results left raw (must be 0). */
function renderedView(text: string, config: ContextPruneConfig): { stubs: number; chains: number; compressed: number; rawCovered: number } {
	const model = runSteps(parseSessionSteps(text));
	const state = runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(model)), WRITER_RELEASE));
	const rendered = runSteps(renderContextSteps(runSteps(buildSessionContextSteps(model)).messages, state, config, WRITER_RELEASE));
	let stubs = 0;
	let rawCovered = 0;
	for (const message of rendered) {
		if (message.role !== 'toolResult') {
			continue;
		}
		const stubbed = /^\[(Summarized in pruner summary|Oversized output spilled)/.test(contentText(message.content));
		stubs += stubbed ? 1 : 0;
		rawCovered += !stubbed && coverageOf(state, message) !== undefined ? 1 : 0;
	}
	return { stubs, chains: rendered.filter((m) => syntheticBlockId(m) !== undefined).length, compressed: state.chains.length, rawCovered };
}

/** Pi reads the original entries unchanged, ours after them on the active path, the last one the leaf. */
async function assertPiReadsOurEntries(original: string, text: string, originalCount: number): Promise<void> {
	assert.ok(text.startsWith(original), 'append-only');
	const pi = await readWithPi(text);
	const before = await readWithPi(original);
	assert.deepEqual(JSON.parse(JSON.stringify(pi.entries.slice(0, originalCount))), JSON.parse(JSON.stringify(before.entries)));
	const ours = pi.entries.slice(originalCount);
	assert.ok(ours.length > 0);
	assert.equal(pi.leafId, ours.at(-1)?.id);
	const onPath = new Set(pi.branch.map((entry) => entry.id));
	assert.ok(ours.every((entry) => onPath.has(entry.id)), 'all our entries are on the active path');
	assert.ok(ours.every((entry) => entry.type === 'custom' || entry.type === 'custom_message'));
}

/**
 * The words around a prune, on the reference session of issue 38 (six batches pending, five of them
 * too small to summarize, four chains to compress: Pi 1.6.0 with pi-condense 2.9.1, nothing pruned
 * yet). The confirmation says the dry run's plan and figure in the preview bar's words; the toast
 * sets the estimate and the result side by side; every button names what it does.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { offlineSummarizer, runFlush, type FlushMode } from '../../../src/engine/flush';
import { sentAfterDraftsSteps, type FlushEstimate } from '../../../src/engine/preview';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../src/engine/session';
import { runSteps } from '../../../src/engine/steps';
import { pendingWork } from '../../../src/engine/views';
import { SessionInsight } from '../../../src/engine/views/sessionInsight';
import { COMPACT_OFFLINE, CONFIRM_COMPACT, CONFIRM_SUMMARIZE, confirmation, resultText, SET_UP_KEY, SUMMARIZE_OFFLINE, type PruneFacts } from '../../../src/host/flush/prunePlanText';
import { sha1Hex } from '../../../src/node/flush/sha1Hasher';
import type { SummarizerPlan } from '../../../src/node/llm/summarizerPlan';
import { memorySpillWriter } from '../../support/flushHarness';
import { piCondenseSessionsDir } from '../../support/paths';
import { LATEST } from '../../support/releases';
import { referenceConfig } from '../engine/condense/piReference';

const NOW = Date.parse('2026-12-01T00:00:00.000Z');
const text = readFileSync(join(piCondenseSessionsDir, 'noprune-batching-pi-1.6.0', 'session.jsonl'), 'utf8');
const config = referenceConfig('batching-pi-1.6.0', LATEST);
const model = runSteps(parseSessionSteps(text));

const NO_KEY: SummarizerPlan = { kind: 'offline', reason: 'no credentials', model: 'anthropic/claude-sonnet-4-5', provider: 'anthropic', envVars: ['ANTHROPIC_API_KEY'] };
const WITH_KEY: SummarizerPlan = { kind: 'model', model: 'anthropic/claude-sonnet-4-5', credential: 'auth.json', sessionModel: true };

function facts(mode: FlushMode, estimate: FlushEstimate, summarizer: SummarizerPlan): PruneFacts {
	return { mode, title: 'batching', release: LATEST.version, estimate, rollingWindow: config.chainCompression.rollingWindow, summarizer };
}

describe('the words around a prune', () => {
	let now: FlushEstimate;
	let compact: FlushEstimate;

	before(async () => {
		const insight = new SessionInsight(model, config, LATEST);
		now = await insight.flushEstimate('now', { hash: sha1Hex }, NOW);
		compact = await insight.flushEstimate('compact', { hash: sha1Hex }, NOW);
		assert.equal(await insight.flushEstimate('now', { hash: sha1Hex }, NOW), now, 'kept: one figure for every surface');
		assert.equal(insight.settledEstimate('now'), now);
	});

	it('Summarize now: the pending work, what the flush would summarize, skip and compress, and what it would reclaim, in the preview bar\'s words', () => {
		const work = pendingWork(now, LATEST.version);
		assert.ok(work);
		assert.equal(work.pendingText, '6 batches pending (17 tool calls, 3.0k chars of output)');
		assert.equal(work.planText, 'Summarize now would summarize 1 batch, skip 5 whose summary would be longer than the output, then compress 4 chains');
		assert.match(work.reclaimText, /^about 2\.0k tokens$/);
		const asked = confirmation(facts('now', now, WITH_KEY));
		assert.equal(asked.message, 'Summarize the 6 pending batches of "batching"?');
		const lines = asked.detail.split('\n\n');
		assert.deepEqual(lines.slice(0, 4), [
			`${work.pendingText}.`,
			`${work.planText}.`,
			`Summarize now would reclaim ${work.reclaimText} (${work.changeText}).`,
			work.basisText,
		]);
		assert.match(work.basisText, /^Estimate: a dry run of pi-condense 2\.9\.1's flush, summaries at 10% of their output \(a typical ratio\) and at least 150 characters a call/);
	});

	it('Compact: the chains it would compress and what that reclaims', () => {
		const asked = confirmation(facts('compact', compact, WITH_KEY));
		assert.equal(compact.compressedChains, 6);
		assert.match(asked.detail, /^Compact would compress 6 closed chains into one block each \(the rolling window is ignored, as \/pruner compact ignores it\)\.\n\nCompact would reclaim about [\d.]+k tokens \([\d.]+k → [\d.]+k tokens sent, estimate\)\./);
	});

	it('every button names what it does: Summarize or Compact, offline when there is no key', () => {
		assert.deepEqual(confirmation(facts('now', now, WITH_KEY)).actions, [CONFIRM_SUMMARIZE]);
		assert.deepEqual(confirmation(facts('compact', compact, WITH_KEY)).actions, [CONFIRM_COMPACT]);
		assert.deepEqual(confirmation(facts('now', now, NO_KEY)).actions, [SET_UP_KEY, SUMMARIZE_OFFLINE]);
		assert.deepEqual(confirmation(facts('compact', compact, NO_KEY)).actions, [SET_UP_KEY, COMPACT_OFFLINE]);
		assert.deepEqual([CONFIRM_SUMMARIZE, CONFIRM_COMPACT, SUMMARIZE_OFFLINE, COMPACT_OFFLINE], ['Summarize', 'Compact', 'Summarize offline', 'Compact offline']);
	});

	it('the toast sets the estimate and what the prune reclaimed side by side, measured alike', async () => {
		const branch = runSteps(getBranchSteps(model));
		const messages = runSteps(buildSessionContextSteps(model)).messages;
		const insight = runSteps(new SessionInsight(model, config, LATEST).prepare());
		const result = await runFlush({ mode: 'now', branch, messages, config, rules: LATEST }, { summarizer: offlineSummarizer, hash: sha1Hex, spill: memorySpillWriter(), now: () => NOW });
		const sent = runSteps(sentAfterDraftsSteps({ branch, messages, sent: insight.preview.after, config, rules: LATEST }, result.drafts, NOW));
		assert.equal(sent.beforeChars, now.sent.beforeChars);
		const told = resultText('Summarized 1 batch of 6.', 'batching', sent, now);
		assert.match(told, /^Pi Condense, "batching": Summarized 1 batch of 6\. Estimated about 2\.0k tokens, reclaimed 2\.0k tokens \([\d.]+k → [\d.]+k tokens sent\)\.$/);
		assert.equal(resultText('Nothing to do.', 'batching', undefined, now), 'Pi Condense, "batching": Nothing to do.');
		// Without an estimate (an auto-flush), the result alone.
		assert.match(resultText('Summarized.', 'batching', sent, undefined), /^Pi Condense, "batching": Summarized\. Reclaimed 2\.0k tokens/);
	});
});

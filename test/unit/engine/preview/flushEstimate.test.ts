/**
 * The estimate before a prune (a dry run of the flush, `estimateFlush`) against what the flush then
 * reclaims, on the reference sessions written by real Pi with real pi-condense releases: each as it
 * is, and with pi-condense's entries taken out (the session as Pi wrote it before any prune: every
 * batch pending, trivial ones among them, chains to compress). The flush compared with is the
 * offline one (extractive summaries, no model: the only one a test can run for real), measured as
 * the toast measures it (`sentAfterDraftsSteps` on the entries it writes). The estimate is within
 * 15 % of that, or it says why it cannot be (the summaries' length decides the result).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ContextPruneConfig } from '../../../../src/engine/config/types';
import { previewFromStateSteps } from '../../../../src/engine/condense';
import { buildCondenseStateSteps } from '../../../../src/engine/condense/state/buildCondenseState';
import { offlineSummarizer, runFlush, type FlushMode } from '../../../../src/engine/flush';
import { estimateFlush, ESTIMATE_MARGIN, sentAfterDraftsSteps, TYPICAL_SUMMARY_RATIO, type FlushEstimate, type SentChange } from '../../../../src/engine/preview';
import type { ReleaseRules } from '../../../../src/engine/release/releases';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../../src/engine/session';
import { runSteps } from '../../../../src/engine/steps';
import { SessionInsight } from '../../../../src/engine/views/sessionInsight';
import { sha1Hex } from '../../../../src/node/flush/sha1Hasher';
import { memorySpillWriter } from '../../../support/flushHarness';
import { piCondenseSessionsDir, realSessionsDir } from '../../../support/paths';
import { defaults, LATEST, referenceReleases } from '../../../support/releases';
import { referenceConfig } from '../condense/piReference';

const NOW = Date.parse('2026-12-01T00:00:00.000Z');

interface Measured {
	readonly estimate: FlushEstimate;
	readonly offline: SentChange;
	readonly offlineReport: Awaited<ReturnType<typeof runFlush>>['report'];
}

async function measure(text: string, mode: FlushMode, config: ContextPruneConfig, rules: ReleaseRules): Promise<Measured> {
	const model = runSteps(parseSessionSteps(text));
	const branch = runSteps(getBranchSteps(model));
	const messages = runSteps(buildSessionContextSteps(model)).messages;
	const state = runSteps(buildCondenseStateSteps(branch, rules));
	const sent = runSteps(previewFromStateSteps(state, messages, config, rules)).after;
	const input = { mode, branch, messages, sent, state, config, rules, now: NOW };
	const estimate = await estimateFlush(input, { hash: sha1Hex });
	const result = await runFlush({ mode, branch, messages, state, config, rules }, { summarizer: offlineSummarizer, hash: sha1Hex, spill: memorySpillWriter(), now: () => NOW });
	return { estimate, offline: runSteps(sentAfterDraftsSteps(input, result.drafts, NOW)), offlineReport: result.report };
}

/** The session without pi-condense's entries, each entry's parent the nearest one kept: what Pi wrote before any prune. */
function withoutPruneEntries(text: string): string {
	const lines = text.split('\n').filter((line) => line !== '');
	const parentOf = new Map<string, string | null>();
	const kept: Record<string, unknown>[] = [];
	for (const line of lines) {
		const entry = JSON.parse(line) as Record<string, unknown>;
		const type = entry['customType'];
		if (typeof type === 'string' && type.startsWith('context-prune')) {
			parentOf.set(entry['id'] as string, (entry['parentId'] as string | null) ?? null);
			continue;
		}
		kept.push(entry);
	}
	const keptParent = (id: string | null): string | null => (id !== null && parentOf.has(id) ? keptParent(parentOf.get(id) ?? null) : id);
	return kept.map((entry) => JSON.stringify('parentId' in entry ? { ...entry, parentId: keptParent(entry['parentId'] as string | null) } : entry)).join('\n') + '\n';
}

interface Case {
	readonly name: string;
	readonly text: string;
	readonly config: ContextPruneConfig;
	readonly rules: ReleaseRules;
}

function referenceCases(): Case[] {
	const releases = referenceReleases();
	const cases: Case[] = [];
	for (const folder of readdirSync(piCondenseSessionsDir).sort()) {
		const path = join(piCondenseSessionsDir, folder, 'session.jsonl');
		if (!statSync(join(piCondenseSessionsDir, folder)).isDirectory()) {
			continue;
		}
		const rules = releases.get(folder) ?? LATEST;
		const configFolder = ['large-bulk', 'large-bulk-2.9.1'].includes(folder) ? 'basic' : folder.startsWith('context-edits') || folder.startsWith('noprune') ? 'batching-pi-1.6.0' : folder;
		const config = { ...referenceConfig(configFolder, rules), enabled: true };
		const text = readFileSync(path, 'utf8');
		cases.push({ name: folder, text, config, rules });
		cases.push({ name: `${folder}, pi-condense's entries taken out`, text: withoutPruneEntries(text), config, rules });
	}
	for (const file of ['large-session.migrated-v3.jsonl', 'before-compaction.migrated-v3.jsonl']) {
		cases.push({ name: file, text: readFileSync(join(realSessionsDir, file), 'utf8'), config: { ...defaults(LATEST), enabled: true }, rules: LATEST });
	}
	return cases;
}

describe('the estimate before a prune: a dry run of the flush', function () {
	this.timeout(120_000);
	const cases = referenceCases();
	const rows: string[] = [];
	after(() => console.log(`      estimate vs offline reclaim (chars):\n${rows.map((row) => `        ${row}`).join('\n')}`));

	for (const { name, text, config, rules } of cases) {
		for (const mode of ['now', 'compact'] as const) {
			it(`${mode} on ${name} (pi-condense ${rules.version}): within ${ESTIMATE_MARGIN * 100} % of the offline flush's reclaim, or says why not`, async () => {
				const { estimate, offline, offlineReport } = await measure(text, mode, config, rules);
				const actual = Math.max(0, offline.beforeChars - offline.afterChars);
				const off = actual === 0 ? (estimate.reclaimChars === 0 ? 0 : 1) : Math.abs(estimate.reclaimChars - actual) / actual;
				rows.push(`${mode} ${name}: estimate ${estimate.reclaimChars}, offline ${actual} (${(off * 100).toFixed(1)} %${estimate.summariesDecide ? ', summaries decide' : ''})`);
				// The plan is the flush's own: the same batches skipped as trivial or duplicates, the same chains when the same batches are summarized.
				assert.equal(estimate.sent.beforeChars, offline.beforeChars);
				assert.equal(estimate.batches, offlineReport.batches);
				assert.equal(estimate.skippedBatches.trivial, offlineReport.skippedBatches.trivial);
				assert.equal(estimate.skippedBatches.deduped, offlineReport.skippedBatches.deduped);
				if (estimate.summarizedBatches === offlineReport.summarizedBatches) {
					assert.equal(estimate.compressedChains, offlineReport.compressedChains.length);
				}
				assert.ok(off <= ESTIMATE_MARGIN || estimate.summariesDecide, `estimate ${estimate.reclaimChars} vs offline ${actual}: ${(off * 100).toFixed(1)} % off, and the estimate does not say why`);
			});
		}
	}

	it('is kept with the session\'s insight once it succeeds (one figure for every surface), and not when its run was stopped', async () => {
		const basic = cases.find((c) => c.name === 'basic, pi-condense\'s entries taken out') as Case;
		const insight = new SessionInsight(runSteps(parseSessionSteps(basic.text)), basic.config, basic.rules);
		await assert.rejects(insight.flushEstimate('now', { hash: sha1Hex, runSteps: () => Promise.reject(new Error('stopped')) }, NOW), /stopped/);
		assert.equal(insight.settledEstimate('now'), undefined);
		const estimate = await insight.flushEstimate('now', { hash: sha1Hex }, NOW);
		assert.equal(await insight.flushEstimate('now', { hash: sha1Hex }, NOW), estimate);
		assert.equal(insight.settledEstimate('now'), estimate);
		assert.equal(insight.settledEstimate('compact'), undefined);
	});

	it('counts the chains the flush compresses after its batches, which the summaries alone leave out', async () => {
		const basic = cases.find((c) => c.name === 'basic, pi-condense\'s entries taken out') as Case;
		const { estimate, offlineReport } = await measure(basic.text, 'now', basic.config, basic.rules);
		assert.ok(estimate.compressedChains > 0, 'chains compressed');
		assert.equal(estimate.compressedChains, offlineReport.compressedChains.length);
		assert.ok(estimate.skippedBatches.oversized > 0, 'batches skipped as their summary would be longer than their output');
		assert.equal(estimate.ratioFrom, 'typical');
		assert.equal(estimate.summaryRatio, TYPICAL_SUMMARY_RATIO);
	});
});

/**
 * The two states a kill leaves that the release reads its own way, held against what it does:
 * a summary without its index entry (it ignores the summary and summarizes the batch again under
 * the next refs; we once rebuilt the index and then aliased the rebuilt calls to themselves), and
 * a kill between two chains (the stats continue from the last stats entry, with no extra entry).
 */
import assert from 'node:assert/strict';
import { buildCondenseStateSteps, renderContextSteps } from '../../../../src/engine/condense';
import { resolveConfig } from '../../../../src/engine/config/resolve';
import { CUSTOM_TYPE_DEDUP_ALIAS, type SummarizerStats } from '../../../../src/engine/condense/types';
import type { ReleaseRules } from '../../../../src/engine/release/releases';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../../src/engine/session';
import type { ContextMessage, SessionEntry } from '../../../../src/engine/session/types';
import type { EntryDraft } from '../../../../src/engine/write';
import { flushText, memorySpillWriter } from '../../../support/flushHarness';
import { flushInvariantViolations } from '../../../support/flushInvariants';
import { LATEST, WRITER_RELEASE } from '../../../support/releases';
import { richReply, richSession, SPILL_THRESHOLD } from '../../../support/richSession';
import { scriptedSummarizer } from '../../../support/scriptedSummarizer';
import { runSteps } from '../../../../src/engine/steps';

function setup(rules: ReleaseRules) {
	const config = resolveConfig({
		enabled: true, spillThreshold: SPILL_THRESHOLD, protectedTools: ['todoread'], chainCompression: { rollingWindow: 1 },
	}, rules).config;
	const summarizer = scriptedSummarizer(richReply);
	const options = { spill: memorySpillWriter(), rules };
	const start = richSession(false).text();
	return { config, summarizer, options, start };
}

/** The file a kill leaves after the first `written` lines of `full` past `start`. */
function killedAfter(start: string, full: string, written: number): string {
	return start + full.slice(start.length).split('\n').slice(0, written).map((line) => `${line}\n`).join('');
}

function render(text: string, rules: ReleaseRules, config: ReturnType<typeof setup>['config']): readonly ContextMessage[] {
	const model = runSteps(parseSessionSteps(text));
	return runSteps(renderContextSteps(runSteps(buildSessionContextSteps(model)).messages, runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(model)), rules)), config, rules));
}

function kindsOf(drafts: readonly { customType: string }[]): string[] {
	return drafts.map((draft) => draft.customType.replace('context-prune-', ''));
}

describe('flush: a file a kill left part-written, read as the release reads it', () => {
	for (const rules of [WRITER_RELEASE, LATEST]) {
		it(`${rules.version}: a summary without its index entry is summarized again under the next refs, with no alias of a call to itself`, async () => {
			const { config, summarizer, options, start } = setup(rules);
			const reference = await flushText(start, config, summarizer, options);
			assert.deepEqual(kindsOf(reference.result.drafts).slice(0, 6), ['summary', 'index', 'summary', 'index', 'summary', 'index']);
			for (const written of [1, 3, 5]) {
				const partial = killedAfter(start, reference.text, written);
				const orphan = runSteps(getBranchSteps(runSteps(parseSessionSteps(partial)))).at(-1);
				assert.equal(orphan?.type === 'custom_message' ? orphan.customType : undefined, 'context-prune-summary');
				const calls = summarizer.requests.length;
				const resumed = await flushText(partial, config, summarizer, options);
				const what = `a kill after line ${written}`;
				assert.deepEqual(resumed.result.drafts.filter((draft) => draft.customType === CUSTOM_TYPE_DEDUP_ALIAS), [], `${what}: no alias`);
				assert.deepEqual(flushInvariantViolations(runSteps(getBranchSteps(runSteps(parseSessionSteps(resumed.text)))), rules), [], what);
				// The batch is summarized again (first, under the refs after the orphan's) and every later one once.
				const expected = kindsOf(reference.result.drafts).slice(written - 1);
				assert.deepEqual(kindsOf(resumed.result.drafts).slice(0, 2), ['summary', 'index'], what);
				assert.equal(kindsOf(resumed.result.drafts).filter((kind) => kind === 'summary').length, expected.filter((kind) => kind === 'summary').length, what);
				const orphanRefs = refsOf(orphan);
				const again = refsOf(resumed.result.drafts[0]);
				const next = runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(runSteps(parseSessionSteps(partial)))), rules)).nextRefNumber;
				assert.deepEqual(again.map((ref) => ref.toolCallId), orphanRefs.map((ref) => ref.toolCallId), what);
				assert.ok(again.every((ref) => Number(ref.shortId.slice(1)) >= next), `${what}: refs ${again.map((ref) => ref.shortId).join(', ')} come after t${next - 1}`);
				// Stats: the release's count, from the last stats entry (none in the partial file) plus this flush's calls.
				const stats = lastStats(resumed.text);
				assert.equal(stats?.callCount, summarizer.requests.length - calls, `${what}: callCount`);
			}
		});
	}

	it('2.9.1: after a kill leaving the last batch\'s summary without its index, Pi\'s context is the uninterrupted one plus that summary, its calls stubbed with the new refs', async () => {
		const rules = LATEST;
		const { config, summarizer, options, start } = setup(rules);
		const reference = await flushText(start, config, summarizer, options);
		// Line 5 is the summary of the last batch (l1, l2: t6, t7), in the newest chain, which stays raw.
		const partial = killedAfter(start, reference.text, 5);
		const resumed = await flushText(partial, config, summarizer, options);
		const after = render(resumed.text, rules, config);
		const expected = render(reference.text, rules, config);
		const orphanText = 'Summarized tool refs**: `t6`, `t7`';
		const orphanAt = after.findIndex((message) => message.role === 'custom' && JSON.stringify(message.content).includes(orphanText));
		assert.ok(orphanAt >= 0, 'the orphan summary stays in the context, as the release leaves it');
		const withoutOrphan = after.filter((_message, i) => i !== orphanAt);
		// The batch summarized again carries the next refs (after the oversized batch's, burned again).
		const again = refsOf(resumed.result.drafts.find((draft) => refsOf(draft).some((ref) => ref.toolCallId === 'l1')));
		assert.deepEqual(again.map((ref) => ref.toolCallId), ['l1', 'l2']);
		const renamed = JSON.stringify(withoutOrphan).replace(new RegExp(`\\b${again[0]?.shortId}\\b`, 'g'), 't6').replace(new RegExp(`\\b${again[1]?.shortId}\\b`, 'g'), 't7');
		assert.deepEqual(JSON.parse(renamed) as unknown, JSON.parse(JSON.stringify(expected)) as unknown);
		// The orphan's refs still resolve: to the records the new index entry holds.
		const state = runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(runSteps(parseSessionSteps(resumed.text)))), rules));
		assert.equal(state.refs.get('t6')?.record.toolCallId, 'l1');
		assert.equal(state.refs.get(again[0]?.shortId ?? '')?.record.toolCallId, 'l1');
	});

	for (const rules of [WRITER_RELEASE, LATEST]) {
		it(`${rules.version}: after a kill between two chains, the stats continue from the last stats entry and no stats entry is added`, async () => {
			const { config, summarizer, options, start } = setup(rules);
			const reference = await flushText(start, config, summarizer, options);
			const kinds = kindsOf(reference.result.drafts);
			const firstChain = kinds.indexOf('chain');
			assert.equal(kinds[firstChain + 1], 'chain');
			const partial = killedAfter(start, reference.text, firstChain + 1);
			const before = lastStats(partial);
			const resumed = await flushText(partial, config, summarizer, options);
			// Nothing pending: the release stops at "nothing pending" (2.7.0+ records the empty flush).
			assert.deepEqual(kindsOf(resumed.result.drafts), rules.flushMetrics ? ['flush-metrics'] : []);
			assert.deepEqual(lastStats(resumed.text), before);
			assert.equal(resumed.result.message, 'pruner: nothing pending — no batches to summarize');
		});
	}
});

function lastStats(text: string): SummarizerStats | undefined {
	return runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(runSteps(parseSessionSteps(text)))), WRITER_RELEASE)).stats;
}

/** The refs of a summary entry or draft (none for anything else). */
function refsOf(entry: SessionEntry | EntryDraft | undefined): { shortId: string; toolCallId: string }[] {
	const details = entry?.type === 'custom_message' ? entry.details as { toolCallRefs?: { shortId: string; toolCallId: string }[] } | undefined : undefined;
	return details?.toolCallRefs ?? [];
}

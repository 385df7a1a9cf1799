/**
 * The release matrix of writing: the same session flushed (`now`, then `compact`) as 2.0.0, 2.1.0,
 * 2.4.3, 2.6.0 and 2.9.1, and read back as the same release. Round trip: every summarized result
 * renders as the stub of a ref that the rendered context still carries (a summary or a compressed
 * chain), recovery of that ref returns the original output, and a second flush finds nothing to do.
 * Differences asserted, release by release: hidden summaries (2.0.1), inline refs in the bullets
 * (2.1.0), the thinking-strip boundary on the frontier (2.4.3 only), occurrence-keyed records and
 * refs (2.6.0), the flush-metrics entry (2.7.0), deterministic chains with a backfill (2.9.0).
 */
import assert from 'node:assert/strict';
import { buildCondenseStateSteps, contentText, recoverOutputs, renderContextSteps } from '../../../../src/engine/condense';
import { resolveConfig } from '../../../../src/engine/config/resolve';
import { isAtLeast, type ReleaseRules } from '../../../../src/engine/release/releases';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../../src/engine/session';
import { flushText, memorySpillWriter } from '../../../support/flushHarness';
import { richReply, richSession, SPILL_THRESHOLD } from '../../../support/richSession';

import { scriptedSummarizer } from '../../../support/scriptedSummarizer';
import { runSteps } from '../../../../src/engine/steps';
import { releaseRules } from '../../../../src/engine/release/releases';

type Json = Record<string, unknown>;

const STUB = /^\[Summarized in pruner summary, ref `(t\d+)`\. Use context_tree_query to retrieve full output\.\]$/;

function customEntries(text: string, customType: string): Json[] {
	return text.trimEnd().split('\n').map((line) => JSON.parse(line) as Json).filter((entry) => entry['customType'] === customType);
}

/** The session after a `now` (`text`), and after a `compact` on top of it (`compacted`). */
async function flushed(rules: ReleaseRules): Promise<{ text: string; compacted: string; original: string; config: ReturnType<typeof resolveConfig>['config'] }> {
	const config = resolveConfig({ enabled: true, spillThreshold: SPILL_THRESHOLD, chainCompression: { enabled: true, rollingWindow: 1 }, thinkingStrip: { enabled: true, keepLastTurns: 2 } }, rules).config;
	const original = richSession(true).text();
	const summarizer = scriptedSummarizer(richReply);
	const now = await flushText(original, config, summarizer, { rules, spill: memorySpillWriter() });
	assert.equal(now.result.status, 'completed', now.result.message);
	const compact = await flushText(now.text, config, summarizer, { rules, mode: 'compact', spill: memorySpillWriter() });
	assert.notEqual(compact.result.status, 'failed', compact.result.message);
	return { text: now.text, compacted: compact.text, original, config };
}

describe('writing per release: what our flush appends reads back as that release renders it', function () {
	this.timeout(60_000);

	for (const version of ['2.0.0', '2.1.0', '2.4.3', '2.6.0', '2.9.1'] as const) {
		it(`${version}: every stub's ref is carried and recovers the original; compact's chains recover theirs; nothing left to do`, async () => {
			const rules = releaseRules(version);
			const { text, original, config } = await flushed(rules);
			const model = runSteps(parseSessionSteps(text));
			const state = runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(model)), rules));
			const rendered = runSteps(renderContextSteps(runSteps(buildSessionContextSteps(model)).messages, state, config, rules));
			const carried = rendered.filter((m) => m.role !== 'toolResult').map((m) => JSON.stringify(m)).join('\n');
			const originals = new Map(runSteps(buildSessionContextSteps(runSteps(parseSessionSteps(original)))).messages.flatMap((m) => (m.role === 'toolResult' ? [[m.toolCallId, contentText(m.content)] as const] : [])));
			let stubs = 0;
			for (const message of rendered) {
				const ref = message.role === 'toolResult' ? STUB.exec(contentText(message.content))?.[1] : undefined;
				if (message.role !== 'toolResult' || ref === undefined) {
					continue;
				}
				stubs++;
				assert.ok(carried.includes(`\`${ref}\``) || carried.includes(ref), `${version}: ${ref} is carried by a summary or chain`);
				const recovered = await recoverOutputs(state, [ref]);
				const raw = recovered.results[ref]?.resultText;
				assert.equal(raw, originals.get(message.toolCallId), `${version}: ${ref} recovers ${message.toolCallId}'s output`);
			}
			assert.ok(stubs > 0, `${version}: some results are stubbed`);
			const compactedState = runSteps(buildCondenseStateSteps(runSteps(getBranchSteps(runSteps(parseSessionSteps((await flushed(rules)).compacted)))), rules));
			for (const chain of compactedState.chains) {
				for (const ref of chain.entry.toolRefs) {
					const record = (await recoverOutputs(compactedState, [ref])).results[ref];
					assert.ok(record, `${version}: chain ${chain.entry.blockId} ref ${ref} recovers`);
					assert.equal(record.resultText === '' ? originals.has(record.toolCallId) : record.resultText === originals.get(record.toolCallId), true, `${version}: ${ref}`);
				}
			}
			const again = await flushText(text, config, scriptedSummarizer(richReply), { rules, spill: memorySpillWriter() });
			assert.deepEqual(again.result.drafts.filter((d) => d.customType !== 'context-prune-flush-metrics'), [], `${version}: a second now writes nothing but its metrics`);
		});
	}

	it('differs between releases exactly where the spec says', async () => {
		for (const version of ['2.0.0', '2.1.0', '2.4.3', '2.6.0', '2.9.1'] as const) {
			const rules = releaseRules(version);
			const { text } = await flushed(rules);
			const summaries = customEntries(text, 'context-prune-summary');
			assert.ok(summaries.length > 0);
			assert.ok(summaries.every((s) => s['display'] === (version === '2.0.0')), `${version}: display ${version === '2.0.0' ? 'true' : 'false'}`);
			const records = customEntries(text, 'context-prune-index').flatMap((e) => (e['data'] as { toolCalls: Json[] }).toolCalls);
			const refs = summaries.flatMap((s) => (s['details'] as { toolCallRefs: Json[] }).toolCallRefs);
			const keyed = isAtLeast(rules.version, '2.6.0');
			assert.ok(records.every((r) => ('resultTimestamp' in r) === keyed), `${version}: records ${keyed ? 'carry' : 'lack'} resultTimestamp`);
			assert.ok(refs.every((r) => ('resultTimestamp' in r) === keyed), `${version}: refs ${keyed ? 'carry' : 'lack'} resultTimestamp`);
			assert.equal(customEntries(text, 'context-prune-flush-metrics').length > 0, isAtLeast(rules.version, '2.7.0'), `${version}: flush metrics`);
			const frontiers = customEntries(text, 'context-prune-frontier').map((f) => f['data'] as Json);
			assert.equal(frontiers.some((f) => 'thinkingStripBoundaryTimestamp' in f), version === '2.4.3', `${version}: thinking boundary on the frontier`);
			// A compact of the untouched session: no summary covers any chain.
			const { config } = await flushed(rules);
			const bare = await flushText(richSession(true).text(), config, scriptedSummarizer(richReply), { rules, mode: 'compact', spill: memorySpillWriter() });
			const deterministic = customEntries(bare.text, 'context-prune-chain').some((c) => (c['data'] as Json)['bodySource'] === 'deterministic');
			assert.equal(deterministic, isAtLeast(rules.version, '2.9.0'), `${version}: deterministic chains`);
		}
	});
});

/**
 * The estimate of what `now` reclaims (the preview's pending work, the confirmation before a
 * flush) against what a real flush then reclaims: the same session flushed by the engine with a
 * summarizer whose summaries are the stated share of the output, measured as pi-condense measures
 * the context before and after. They agree within a few percent; the estimate names the ratio it
 * used, the session's own once it has summaries.
 */
import assert from 'node:assert/strict';
import { contextBreakdownSteps, previewContextSteps } from '../../../../src/engine/condense';
import { resolveConfig } from '../../../../src/engine/config/resolve';
import { pendingEstimateSteps, TYPICAL_SUMMARY_RATIO } from '../../../../src/engine/preview/pendingEstimate';
import { buildSessionContextSteps, getBranchSteps, parseSessionSteps } from '../../../../src/engine/session';
import { runSteps } from '../../../../src/engine/steps';
import { SessionInsight } from '../../../../src/engine/views/sessionInsight';
import { output } from '../../../support/flushFixtures';
import { flushText } from '../../../support/flushHarness';
import { LATEST, R200 } from '../../../support/releases';
import { scriptedSummarizer } from '../../../support/scriptedSummarizer';
import { SessionBuilder, text, toolCall } from '../../../support/sessionBuilder';

function session(prompts: number): string {
	const builder = new SessionBuilder();
	for (let n = 0; n < prompts; n++) {
		builder.user(`Read part ${n}.`);
		builder.assistant([toolCall(`c${n}a`, 'read', { path: `src/p${n}.ts` }), toolCall(`c${n}b`, 'bash', { command: `wc -l src/p${n}.ts` })]);
		builder.toolResult(`c${n}a`, 'read', output(`part${n}`, 1500 + n * 211));
		builder.toolResult(`c${n}b`, 'bash', n % 3 === 0 ? '12 lines' : output(`count${n}`, 600));
		builder.assistant([text(`Part ${n} read.`)]);
	}
	return builder.text();
}

/** The sent context's size in characters, as pi-condense measures it. */
function sentChars(sessionText: string, config: ReturnType<typeof resolveConfig>['config'], release = LATEST): number {
	const model = runSteps(parseSessionSteps(sessionText));
	const context = runSteps(previewContextSteps(runSteps(getBranchSteps(model)), runSteps(buildSessionContextSteps(model)).messages, config, release));
	return runSteps(contextBreakdownSteps(context.after)).total;
}

describe('the estimate of what Summarize now reclaims', () => {
	for (const release of [LATEST, R200]) {
		it(`is within 5% of what a flush with summaries at the stated ratio reclaims (pi-condense ${release.version})`, async () => {
			const { config } = resolveConfig({ enabled: true, dedupByContentHash: false, chainCompression: { enabled: false } }, release);
			const before = session(24);
			const insight = runSteps(new SessionInsight(runSteps(parseSessionSteps(before)), config, release).prepare());
			const estimate = runSteps(pendingEstimateSteps(insight.pending, insight.state, { minBatchChars: config.minBatchChars, summaryDisplay: release.summaryDisplay, occurrenceKeys: release.occurrenceKeys }));
			assert.equal(estimate.ratioFrom, 'typical');
			assert.equal(estimate.summaryRatio, TYPICAL_SUMMARY_RATIO);
			assert.equal(estimate.batches, 24);
			// Summaries of the stated share of each batch's output, one bullet per call as the prompt asks.
			const summarizer = scriptedSummarizer((request) => {
				const calls = request.input?.kind === 'batch' ? request.input.calls : [];
				const raw = calls.reduce((sum, call) => sum + call.resultText.length, 0);
				const bullets = calls.map((call) => `- ${call.label} `).join('\n');
				return `${bullets}${'s'.repeat(Math.max(0, Math.round(raw * TYPICAL_SUMMARY_RATIO) - bullets.length))}`;
			});
			const { text: after, result } = await flushText(before, config, summarizer, { rules: release });
			assert.equal(result.report.summarizedBatches, estimate.summarizedBatches);
			const actual = sentChars(before, config, release) - sentChars(after, config, release);
			assert.ok(actual > 0);
			assert.ok(Math.abs(estimate.reclaimChars - actual) / actual < 0.05, `estimate ${estimate.reclaimChars} vs actual ${actual}`);
		});
	}

	it('uses the ratio of the session\'s own summaries once it has some', async () => {
		const { config } = resolveConfig({ enabled: true, chainCompression: { enabled: false } }, LATEST);
		const first = session(6);
		const { text: flushed } = await flushText(first, config, scriptedSummarizer((request) => `- ${request.input?.kind === 'batch' ? request.input.calls[0]?.label ?? '' : ''} ${'w'.repeat(300)}`), { rules: LATEST });
		// Pi goes on from the flushed leaf: two more reads, pending.
		const more = new SessionBuilder();
		more.leafId = runSteps(parseSessionSteps(flushed)).leafId;
		for (let n = 0; n < 2; n++) {
			const at = { timestamp: Date.now() };
			more.entry({ type: 'message', id: `u-${n}`, message: { role: 'user', content: [text(`More ${n}.`)], ...at } });
			more.entry({ type: 'message', id: `a-${n}`, message: { role: 'assistant', content: [toolCall(`m${n}`, 'read', { path: `m${n}` })], api: 'anthropic-messages', provider: 'anthropic', model: 'm', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'toolUse', ...at } });
			more.entry({ type: 'message', id: `r-${n}`, message: { role: 'toolResult', toolCallId: `m${n}`, toolName: 'read', content: [text(output(`more${n}`, 2000))], isError: false, ...at } });
		}
		const grown = flushed + more.text().split('\n').slice(1).filter((line) => line !== '').map((line) => `${line}\n`).join('');
		const insight = runSteps(new SessionInsight(runSteps(parseSessionSteps(grown)), config, LATEST).prepare());
		const estimate = runSteps(pendingEstimateSteps(insight.pending, insight.state, { minBatchChars: config.minBatchChars, summaryDisplay: LATEST.summaryDisplay, occurrenceKeys: LATEST.occurrenceKeys }));
		assert.equal(estimate.ratioFrom, 'session');
		assert.ok(estimate.summaryRatio > 0.02 && estimate.summaryRatio < 0.5 && estimate.summaryRatio !== TYPICAL_SUMMARY_RATIO, String(estimate.summaryRatio));
	});
});

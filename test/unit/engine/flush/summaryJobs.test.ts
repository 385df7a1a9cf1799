import assert from 'node:assert/strict';
import { runSummaryJobs, type SummaryJob } from '../../../../src/engine/flush/callSummarizer';
import type { FlushProgress } from '../../../../src/engine/flush';
import { SummarizerError } from '../../../../src/engine/ports';
import { scriptedSummarizer } from '../../../support/scriptedSummarizer';

const jobs = (n: number): SummaryJob[] => Array.from({ length: n }, (_, i) => ({ request: () => ({ prompt: `job ${i}`, input: { kind: 'batch', assistantText: '', calls: [] } }), progressIndex: i }));

describe('summarizer calls of a flush', () => {
	it('runs calls in parallel up to the concurrency, one at a time when sequential', async () => {
		for (const [sequential, concurrency, peak] of [[false, 3, 3], [true, 3, 1], [false, 10, 5]] as const) {
			let running = 0;
			let highest = 0;
			const summarizer = scriptedSummarizer((request) => `ok ${request.prompt}`, 10);
			const wrapped = { label: 'x', summarize: async (request: Parameters<typeof summarizer.summarize>[0]) => {
				highest = Math.max(highest, ++running);
				try {
					return await summarizer.summarize(request);
				} finally {
					running--;
				}
			} };
			const result = await runSummaryJobs(jobs(5), { summarizer: wrapped, sequential, concurrency, progressTotal: 5, progress: () => undefined });
			assert.ok(result.outcomes.every((o) => o.kind === 'ok'));
			assert.equal(highest, peak);
		}
	});

	it('after a failure, cancels the later calls and lets the earlier ones finish', async () => {
		const events: FlushProgress[] = [];
		const summarizer = scriptedSummarizer((request) => (request.prompt === 'job 1' ? new SummarizerError('error', 'boom') : 'fine'), 5);
		const result = await runSummaryJobs(jobs(6), { summarizer, sequential: false, concurrency: 2, progressTotal: 6, progress: (e) => events.push(e) });
		assert.equal(result.aborted, false);
		const [first, failed, ...later] = result.outcomes;
		assert.equal(first?.kind, 'ok');
		assert.equal(failed?.kind === 'failed' && failed.error.message, 'boom');
		assert.ok(later.every((o) => o.kind !== 'ok'), 'nothing after the failure is used');
		assert.ok(later.filter((o) => o.kind === 'not-run').length >= 3, 'calls not started yet are never started');
		assert.ok(events.some((e) => e.type === 'batch-skipped' && e.index === 1 && e.reason === 'failed'));
		assert.ok(events.filter((e) => e.type === 'batch-skipped').every((e) => e.type !== 'batch-skipped' || e.index === 1 || e.reason === 'cancelled'));
	});

	it('reports an abort of the caller\'s signal', async () => {
		const controller = new AbortController();
		const summarizer = scriptedSummarizer('fine', 20);
		const run = runSummaryJobs(jobs(3), { summarizer, sequential: true, concurrency: 1, progressTotal: 3, signal: controller.signal, progress: () => undefined });
		setTimeout(() => controller.abort(), 5);
		const result = await run;
		assert.equal(result.aborted, true);
		assert.ok(result.outcomes.some((o) => o.kind !== 'ok'));
	});
});

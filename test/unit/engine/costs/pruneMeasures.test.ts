/**
 * What a prune removed, from the render engine: a crafted session whose one tool output (40,000 characters)
 * pi-condense summarized. Without the prune the next request carries the output; with it, a stub and the
 * summary: the difference is what the account charges and credits. And prunes taken in order: a later chain
 * over an already summarized call is credited only with what it took out beyond the summary.
 */
import assert from 'node:assert/strict';
import { NO_PRICES, pruneMeasuresSteps, sessionCostsSteps, sessionTimelineSteps, verdictText } from '../../../../src/engine/costs';
import { releaseDefaults } from '../../../../src/engine/config/defaults';
import { releaseRules } from '../../../../src/engine/release/releases';
import { parseSessionSteps } from '../../../../src/engine/session';
import { runSteps } from '../../../../src/engine/steps';
import { SessionBuilder, text, toolCall } from '../../../support/sessionBuilder';

const RULES = releaseRules('2.0.0');
const OUTPUT = 'x'.repeat(40_000);

function summarizedSession(): string {
	const s = new SessionBuilder();
	s.user('list the files');
	s.assistant([toolCall('c1', 'bash', { command: 'ls' })]);
	const result = s.toolResult('c1', 'bash', OUTPUT);
	void result;
	s.assistant([text('done')]);
	s.entry({ type: 'custom_message', customType: 'context-prune-summary', content: 'Listed the files.', display: false, details: { toolCallRefs: [{ shortId: 't1', toolCallId: 'c1' }], toolNames: ['bash'], turnIndex: 0, timestamp: 1 } });
	s.entry({ type: 'custom', customType: 'context-prune-index', data: { toolCalls: [{ toolCallId: 'c1', toolName: 'bash', args: { command: 'ls' }, resultText: OUTPUT, isError: false, turnIndex: 0, timestamp: 1 }] } });
	s.user('next');
	s.assistant([text('ok')]);
	s.user('again');
	s.assistant([text('ok again')]);
	return s.text();
}

describe('costs: what a prune removed, measured by the render engine', () => {
	it('a summarized 40,000-character output: the next requests are sent about 10,000 tokens lighter', () => {
		const model = runSteps(parseSessionSteps(summarizedSession()));
		const timeline = runSteps(sessionTimelineSteps(model.entries));
		const measures = runSteps(pruneMeasuresSteps({ model, timeline, rules: RULES, config: { ...releaseDefaults(RULES), enabled: true } }));
		assert.equal(measures.prunes.length, 1);
		assert.equal(measures.prunes[0]?.summaries, 1);
		assert.equal(measures.prunes[0]?.records, 1);
		assert.equal(measures.prunes[0]?.beforeRequest, 2, 'the prune sits before the third request');
		const epoch = measures.epochs[measures.replies[2]?.epoch ?? -1];
		const removed = epoch?.removed.get(0) ?? 0;
		// 40,000 characters (10,000 tokens) out; a stub of about 200 characters and the summary message in: a little under 10,000.
		assert.ok(removed > 9_800 && removed < 10_000, `removed ${removed}`);
		assert.equal(measures.replies[3]?.epoch, measures.replies[2]?.epoch, 'the request after reuses the renders');
		assert.equal(measures.renders, 3, 'one render for the first request, two of the prune\'s window (without it, with it)');
		// Later requests' estimates grow by what was appended, without rendering again.
		assert.ok((measures.replies[3]?.estimate ?? 0) > (measures.replies[2]?.estimate ?? 0));
	});

	it('pruning off in the settings: the prunes written while it was on are still measured', () => {
		const model = runSteps(parseSessionSteps(summarizedSession()));
		const costs = runSteps(sessionCostsSteps({ model, rules: RULES, config: { ...releaseDefaults(RULES), enabled: false }, prices: NO_PRICES }));
		const epoch = costs.measures.epochs[costs.measures.replies[2]?.epoch ?? -1];
		assert.ok((epoch?.removed.get(0) ?? 0) > 9_000);
		// The builder's replies record no cache: the provider kept none a prune could break.
		assert.equal(verdictText(costs.accounts[0]?.verdict ?? { kind: 'not-measured' }), 'free: the provider reported no prompt cache');
	});
});

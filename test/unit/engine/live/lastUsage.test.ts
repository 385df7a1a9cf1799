/**
 * The Last sent panel's usage line and cache countdown, on a crafted session worked out by hand: a reply
 * at 0 that called a tool (2 new, 40,000 written), then a reply at one minute (2 new, 40,000 read,
 * 60,000 written, 10 output, $0.000156 + $0.012 + $0.225 = $0.237). The cache's last use is that reply: warm until 6 minutes
 * (Anthropic's 5), surely gone then too.
 */
import assert from 'node:assert/strict';
import { cacheCountdownText, clockDuration } from '../../../../src/base/cacheCountdown';
import { CostsLedger } from '../../../../src/engine/costs';
import { lastUsageView } from '../../../../src/engine/live';
import { parseSessionSteps } from '../../../../src/engine/session';
import { runSteps } from '../../../../src/engine/steps';
import { SessionBuilder } from '../../../support/sessionBuilder';

const MINUTE = 60_000;
const usage = (cacheRead: number, cacheWrite: number): Record<string, unknown> => ({
	input: 2, output: 10, cacheRead, cacheWrite, totalTokens: 12 + cacheRead + cacheWrite,
	cost: { input: 0.000006, output: 0.00015, cacheRead: cacheRead * 0.3e-6, cacheWrite: cacheWrite * 3.75e-6, total: 0.000156 + cacheRead * 0.3e-6 + cacheWrite * 3.75e-6 },
});

function ledgerOf(s: SessionBuilder): { ledger: CostsLedger; ids: string[] } {
	const model = runSteps(parseSessionSteps(s.text()));
	return { ledger: runSteps(CostsLedger.empty().extendSteps(model.entries)), ids: model.entries.map((entry) => entry.id) };
}

function session(): SessionBuilder {
	const s = new SessionBuilder();
	s.user('list the files');
	s.message({ role: 'assistant', content: [{ type: 'toolCall', id: 'call_1', name: 'bash', arguments: { command: 'ls' } }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: usage(0, 40_000), stopReason: 'toolUse', timestamp: 0 });
	s.toolResult('call_1', 'bash', 'a\nb\nc');
	s.message({ role: 'assistant', content: [{ type: 'text', text: 'three files' }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: usage(40_000, 60_000), stopReason: 'stop', timestamp: MINUTE });
	return s;
}

describe('live: the last reply\'s usage and the cache countdown', () => {
	it('says the last reply\'s recorded usage, of the request sent from the leaf before it', () => {
		const { ledger } = ledgerOf(session());
		// Entries: user 0, reply 1, tool result 2, reply 3. Pi sent the request from the tool result (2): its reply is 3.
		const view = lastUsageView(ledger.lastUse(), 2);
		assert.equal(view?.text, 'anthropic/claude-sonnet-4-5: 100.0k context (40.0k read from the cache, 60.0k written to it, 2 new) · 10 output · $0.237');
		assert.equal(view?.ofShownRequest, true);
		assert.deepEqual(view?.clock, { warmUntil: 6 * MINUTE, surelyUntil: 6 * MINUTE, lifetime: 'Anthropic: 5 minutes' });
	});

	it('says when the reply to the request shown has not reached the file yet', () => {
		const { ledger } = ledgerOf(session());
		assert.equal(lastUsageView(ledger.lastUse(), 3)?.ofShownRequest, false, 'a request sent from the last reply: its own reply is still coming');
		assert.equal(lastUsageView(ledger.lastUse(), undefined)?.ofShownRequest, false, 'the leaf is not in the file yet');
	});

	it('is nothing before any reply recorded usage', () => {
		const s = new SessionBuilder();
		s.user('hello');
		assert.equal(lastUsageView(ledgerOf(s).ledger.lastUse(), -1), undefined);
	});

	it('counts down from the cache\'s last use, then says it expired', () => {
		const clock = { warmUntil: 6 * MINUTE, surelyUntil: 11 * MINUTE, lifetime: 'OpenAI: 5–10 minutes idle' };
		assert.equal(cacheCountdownText(clock, 2 * MINUTE + 48_000), 'cache warm for 3:12 more (OpenAI: 5–10 minutes idle): pruning now makes the next request write it again');
		assert.equal(cacheCountdownText(clock, 7 * MINUTE), 'cache may have expired (OpenAI: 5–10 minutes idle; surely gone in 4:00)');
		assert.equal(cacheCountdownText(clock, 12 * MINUTE + 5_000), 'cache expired 6:05 ago (OpenAI: 5–10 minutes idle): pruning now costs no extra cache write');
		assert.equal(clockDuration(3_723_000), '1:02:03');
		assert.equal(clockDuration(-5), '0:00');
	});
});

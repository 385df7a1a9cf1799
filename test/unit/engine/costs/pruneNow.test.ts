/**
 * What pruning now would do to the cache, as the status bar's tooltip and the Summarize Now
 * confirmation say it, worked out by hand on a crafted session: a reply that called a tool (prompt
 * 40,002 tokens, 10 output) and the next reply (prompt 100,002: 40,000 read, 60,000 written, at one
 * minute). The cache holds 100,002 tokens for 5 minutes from that reply; pruning the call's output
 * keeps the 40,012 tokens before it cached and takes 10,000 off: 49,990 re-written at what writing
 * cost beyond reading ((0.000006 + 60,000 × 3.75e-6) / 60,002 − 0.3e-6 per token): $0.172.
 */
import assert from 'node:assert/strict';
import { callEntryIdOf, CostsLedger, NO_PRICES, pruneNowCacheLine } from '../../../../src/engine/costs';
import { parseSessionSteps, type SessionModel } from '../../../../src/engine/session';
import { runSteps } from '../../../../src/engine/steps';
import { SessionBuilder } from '../../../support/sessionBuilder';

const MINUTE = 60_000;
const usage = (cacheRead: number, cacheWrite: number): Record<string, unknown> => ({
	input: 2, output: 10, cacheRead, cacheWrite, totalTokens: 12 + cacheRead + cacheWrite,
	cost: { input: 0.000006, output: 0.00015, cacheRead: cacheRead * 0.3e-6, cacheWrite: cacheWrite * 3.75e-6, total: 0.000156 + cacheRead * 0.3e-6 + cacheWrite * 3.75e-6 },
});
const clock = (at: number): string => `T+${at / MINUTE}m`;

function session(): { model: SessionModel; ledger: CostsLedger; callEntry: string } {
	const s = new SessionBuilder();
	s.user('list the files');
	const callEntry = s.message({ role: 'assistant', content: [{ type: 'toolCall', id: 'call_1', name: 'bash', arguments: { command: 'ls' } }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: usage(0, 40_000), stopReason: 'toolUse', timestamp: 0 });
	s.toolResult('call_1', 'bash', 'a\nb\nc');
	s.message({ role: 'assistant', content: [{ type: 'text', text: 'three files' }], api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: usage(40_000, 60_000), stopReason: 'stop', timestamp: MINUTE });
	const model = runSteps(parseSessionSteps(s.text()));
	return { model, ledger: runSteps(CostsLedger.empty().extendSteps(model.entries)), callEntry };
}

describe('costs: what pruning now does to the cache', () => {
	it('warm: the minutes left, until when, the tokens re-written and their cost', () => {
		const { model, ledger, callEntry } = session();
		assert.equal(callEntryIdOf(model.entries, 'call_1'), callEntry);
		const line = pruneNowCacheLine({ ledger, entries: model.entries, firstPendingCallId: 'call_1', removedTokens: 10_000, book: NO_PRICES, now: 2 * MINUTE, clock });
		assert.equal(line, 'cache warm for 4 more minutes (until T+6m): pruning now re-writes ~50.0k tokens (~$0.172)');
	});

	it('warm with nothing pending: how long only; under a minute said so', () => {
		const { model, ledger } = session();
		assert.equal(pruneNowCacheLine({ ledger, entries: model.entries, firstPendingCallId: undefined, removedTokens: 0, book: NO_PRICES, now: 2 * MINUTE, clock }), 'cache warm for 4 more minutes (until T+6m)');
		assert.equal(pruneNowCacheLine({ ledger, entries: model.entries, firstPendingCallId: undefined, removedTokens: 0, book: NO_PRICES, now: 5.5 * MINUTE, clock }), 'cache warm for less than a minute (until T+6m)');
	});

	it('expired: no extra cache write', () => {
		const { model, ledger } = session();
		assert.equal(pruneNowCacheLine({ ledger, entries: model.entries, firstPendingCallId: 'call_1', removedTokens: 10_000, book: NO_PRICES, now: 7 * MINUTE, clock }), 'cache expired: pruning now costs no extra cache write');
	});

	it('nothing said of a session without a recorded prompt', () => {
		const s = new SessionBuilder();
		s.user('hello');
		const model = runSteps(parseSessionSteps(s.text()));
		const ledger = runSteps(CostsLedger.empty().extendSteps(model.entries));
		assert.equal(pruneNowCacheLine({ ledger, entries: model.entries, firstPendingCallId: undefined, removedTokens: 0, book: NO_PRICES, now: 0, clock }), '');
	});
});

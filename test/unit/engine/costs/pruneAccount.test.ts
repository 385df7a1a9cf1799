/**
 * Each prune's account on crafted sessions whose answers are worked out by hand below: one that pays back,
 * one that never does, one made free by an idle gap, one across a model change. The sessions are real
 * session files (usage as Pi records it, a prune as pi-condense writes its index entry); what the prune
 * removed (R) is given, at a calibration of exactly 1, so every figure is arithmetic on the recorded usage.
 * (`pruneMeasures.test.ts` checks R itself against the render engine.)
 *
 * Prices (Anthropic's Sonnet, USD per million tokens): input 3, cache read 0.30, cache write 3.75.
 */
import assert from 'node:assert/strict';
import { NO_PRICES, pruneAccountsSteps, requestPricesSteps, sessionTimelineSteps, verdictText, type Calibration, type PruneMeasures, type PruneMarker, type SessionTimeline } from '../../../../src/engine/costs';
import { parseSessionSteps } from '../../../../src/engine/session';
import { runSteps } from '../../../../src/engine/steps';
import { SessionBuilder, text } from '../../../support/sessionBuilder';

const M = 1e-6;
const SONNET = { provider: 'anthropic', model: 'claude-sonnet-4-5', api: 'anthropic-messages', input: 3 * M, read: 0.3 * M, write: 3.75 * M };
const GPT = { provider: 'openai', model: 'gpt-5.1', api: 'openai-responses', input: 1.25 * M, read: 0.125 * M, write: 0 };
type Model = typeof SONNET;

interface Request { readonly at: number; readonly input: number; readonly cacheRead: number; readonly cacheWrite: number; readonly model?: Model }

const REMOVED = 20_000;
const EXACT: Calibration = { factor: 1, low: 1, high: 1, from: 'growth', samples: 9 };

/** A session of replies (recorded usage and cost as pi-ai computes them), with a pi-condense flush before reply `pruneBefore`. */
function session(requests: readonly Request[], pruneBefore: number): SessionTimeline {
	const s = new SessionBuilder();
	requests.forEach((request, i) => {
		if (i === pruneBefore) {
			s.entry({ type: 'custom', customType: 'context-prune-index', data: { toolCalls: [{ toolCallId: 'c1', toolName: 'bash', args: {}, resultText: 'x', isError: false, turnIndex: 1, timestamp: 1 }] } });
		}
		s.user(`prompt ${i}`);
		const model = request.model ?? SONNET;
		const cost = { input: request.input * model.input, output: 0, cacheRead: request.cacheRead * model.read, cacheWrite: request.cacheWrite * model.write };
		s.message({
			role: 'assistant', content: [text('ok')], api: model.api, provider: model.provider, model: model.model, stopReason: 'stop', timestamp: request.at,
			usage: { input: request.input, output: 0, cacheRead: request.cacheRead, cacheWrite: request.cacheWrite, totalTokens: request.input + request.cacheRead + request.cacheWrite, cost: { ...cost, total: cost.input + cost.cacheRead + cost.cacheWrite } },
		});
	});
	return runSteps(sessionTimelineSteps(runSteps(parseSessionSteps(s.text())).entries));
}

/** Two epochs: before the prune (nothing removed), from its first request on (R tokens removed). */
function measures(timeline: SessionTimeline, firstAfter: number): PruneMeasures {
	const prunes = timeline.markers.filter((marker): marker is PruneMarker => marker.kind === 'prune');
	assert.equal(prunes.length, 1);
	return {
		prunes,
		replies: timeline.requests.map((request) => ({ request: request.index, estimate: request.contextTokens, epoch: request.index < firstAfter ? 0 : 1 })),
		epochs: [{ request: 0, removed: new Map() }, { request: firstAfter, removed: new Map([[0, REMOVED]]) }],
		renders: 0,
	};
}

function account(requests: readonly Request[], pruneBefore: number) {
	const timeline = session(requests, pruneBefore);
	const [result] = runSteps(pruneAccountsSteps(timeline, measures(timeline, pruneBefore), EXACT, runSteps(requestPricesSteps(timeline.requests, NO_PRICES))));
	return result as NonNullable<typeof result>;
}

const near = (actual: number, expected: number, label: string): void => assert.ok(Math.abs(actual - expected) < 1e-12, `${label}: ${actual} ≠ ${expected}`);
const MINUTE = 60_000;

/**
 * Requests 0 and 1 fill the cache (100k, then 101k tokens). The prune takes R = 20k tokens out, changing the
 * context from token 50,000 on: request 2 reads the 50k that still match and writes the rest.
 * Then every request grows by 1k, read from the cache but for the new 1k.
 */
function warmSession(after: number, gapMs = 10_000): Request[] {
	const requests: Request[] = [
		{ at: 0, input: 0, cacheRead: 0, cacheWrite: 100_000 },
		{ at: 10_000, input: 0, cacheRead: 100_000, cacheWrite: 1_000 },
		{ at: 10_000 + gapMs, input: 0, cacheRead: 50_000, cacheWrite: 32_000 },
	];
	for (let i = 0; i < after; i++) {
		const prompt = 82_000 + (i + 1) * 1_000;
		requests.push({ at: 10_000 + gapMs + (i + 1) * 10_000, input: 0, cacheRead: prompt - 1_000, cacheWrite: 1_000 });
	}
	return requests;
}

describe('costs: each prune accounted (worked out by hand)', () => {
	it('a prune that pays back', () => {
		const result = account(warmSession(20), 2);
		// Request 2: the cache held 101,000 tokens; it read 50,000; 20,000 were removed: re-written 101,000 − 50,000 − 20,000 = 31,000
		// (at most its 32,000 paid tokens). Each cost 3.75 instead of 0.30 per million: 31,000 × 3.45e-6 = $0.10695.
		near(result.rewrittenTokens.mid, 31_000, 're-written');
		near(result.cacheCost.mid, 31_000 * (3.75 - 0.3) * M, 'cost');
		// Every request from request 2 on is sent 20,000 tokens lighter, which it would have read at 0.30 per million: $0.006 each.
		// Balance after n requests: 0.006 n − 0.10695 ≥ 0 from n = 18 (0.108).
		assert.equal(verdictText(result.verdict), 'paid back after 18 requests');
		assert.deepEqual(result.verdict, { kind: 'paid-back', afterRequests: 18, atRequest: 19 });
		near(result.savings.mid, 21 * REMOVED * 0.3 * M, 'saved over the 21 requests sent with it');
		near(result.net.mid, 21 * 0.006 - 0.10695, 'net');
		assert.equal(result.cold, undefined);
	});

	it('a prune that never pays back', () => {
		const result = account(warmSession(4), 2);
		// The same cost, $0.10695; five requests save 5 × $0.006 = $0.03: the balance ends at −$0.07695.
		assert.equal(verdictText(result.verdict), 'not paid back: the session ended 5 requests later');
		near(result.net.mid, 5 * 0.006 - 0.10695, 'net');
		near(result.balance.at(-1)?.usd ?? 0, 5 * 0.006 - 0.10695, 'last balance');
	});

	it('a prune made free by an idle gap', () => {
		// Request 2 comes 10 minutes after request 1: Anthropic's 5-minute cache had expired, so it wrote its whole prompt
		// anyway (cache read 0): nothing is charged to the prune.
		const requests = warmSession(3, 10 * MINUTE);
		requests[2] = { at: requests[2]?.at ?? 0, input: 0, cacheRead: 0, cacheWrite: 82_000 };
		const result = account(requests, 2);
		assert.equal(result.cold, 'expired');
		assert.equal(result.cacheCost.mid, 0);
		assert.equal(verdictText(result.verdict), 'free: the cache had expired');
		// Saved: at request 2 the 20,000 tokens would have been written (3.75 per million: $0.075), then read three times ($0.006 each).
		near(result.savings.mid, REMOVED * 3.75 * M + 3 * REMOVED * 0.3 * M, 'saved');
	});

	it('a prune across a model change', () => {
		// The prune is written while Sonnet answers; the next request goes to GPT-5.1, whose cache held nothing of this
		// conversation: free. Its savings are priced at GPT's rates: the 20,000 tokens would have been paid as input at
		// request 2 (1.25 per million: $0.025), then read from OpenAI's cache (0.125 per million: $0.0025) at requests 3 and 4.
		const requests: Request[] = [
			{ at: 0, input: 0, cacheRead: 0, cacheWrite: 100_000 },
			{ at: 10_000, input: 0, cacheRead: 100_000, cacheWrite: 1_000 },
			{ at: 20_000, input: 82_000, cacheRead: 0, cacheWrite: 0, model: GPT },
			{ at: 30_000, input: 1_000, cacheRead: 82_000, cacheWrite: 0, model: GPT },
			{ at: 40_000, input: 1_000, cacheRead: 83_000, cacheWrite: 0, model: GPT },
		];
		const result = account(requests, 2);
		assert.equal(result.cold, 'model-change');
		assert.equal(verdictText(result.verdict), 'free: the model changed, so the cache was rebuilt anyway');
		near(result.savings.mid, REMOVED * 1.25 * M + 2 * REMOVED * 0.125 * M, 'saved at GPT-5.1\'s prices');
	});

	it('the calibration\'s spread makes every figure a range', () => {
		const timeline = session(warmSession(20), 2);
		const [result] = runSteps(pruneAccountsSteps(timeline, measures(timeline, 2), { factor: 1, low: 0.8, high: 1.25, from: 'growth', samples: 9 }, runSteps(requestPricesSteps(timeline.requests, NO_PRICES))));
		// At 0.8, R = 16,000: 101,000 − 50,000 − 16,000 = 35,000, but request 2 paid for only 32,000 tokens outside the cache:
		// re-written 32,000 ($0.1104); saved 21 × 16,000 × 0.3e-6 = $0.1008. At 1.25, R = 25,000: re-written 26,000 ($0.0897), saved $0.1575.
		near(result?.removedTokens.low ?? 0, 16_000, 'low');
		near(result?.removedTokens.high ?? 0, 25_000, 'high');
		near(result?.net.low ?? 0, 21 * 16_000 * 0.3 * M - 32_000 * 3.45 * M, 'net at the low factor');
		near(result?.net.high ?? 0, 21 * 25_000 * 0.3 * M - 26_000 * 3.45 * M, 'net at the high factor');
	});
});

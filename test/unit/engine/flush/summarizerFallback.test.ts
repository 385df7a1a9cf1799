/**
 * pi-condense 2.2.x's summarizer fallback (spec §3.4), on scripted summarizers and a clock we move:
 * which model each call goes to, when the configured one is probed again, the notices word for
 * word, and the 2.2.0 defect (a failing fallback call postpones the probe) against 2.2.1.
 */
import assert from 'node:assert/strict';
import { FALLBACK_COOLDOWN_MS, withSummarizerFallback } from '../../../../src/engine/flush';
import { SummarizerError, type SummarizeResult, type Summarizer, type SummarizerFailureKind } from '../../../../src/engine/ports';
import type { SummarizerFallbackRule } from '../../../../src/engine/release/releases';

const NO_USAGE = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

/** A summarizer answering from a queue of outcomes (`ok`, or a failure kind); records each call. */
class Scripted implements Summarizer {
	readonly calls: number[] = [];
	constructor(readonly label: string, private readonly clock: { now: number }, private readonly outcomes: Array<'ok' | SummarizerFailureKind>, private readonly otherwise: 'ok' | SummarizerFailureKind = 'ok') {}

	summarize(): Promise<SummarizeResult> {
		this.calls.push(this.clock.now);
		const outcome = this.outcomes.shift() ?? this.otherwise;
		return outcome === 'ok'
			? Promise.resolve({ text: `summary by ${this.label}`, usage: NO_USAGE, model: this.label })
			: Promise.reject(new SummarizerError(outcome, `${this.label}: ${outcome}`));
	}
}

function setUp(rule: SummarizerFallbackRule, primaryOutcomes: Array<'ok' | SummarizerFailureKind>, sessionOutcomes: Array<'ok' | SummarizerFailureKind> = []) {
	const clock = { now: 1_000 };
	const notices: string[] = [];
	const primary = new Scripted('openai/gpt-mini', clock, primaryOutcomes);
	const session = new Scripted('anthropic/claude', clock, sessionOutcomes);
	const summarizer = withSummarizerFallback({ primary, fallback: session, rule, now: () => clock.now, notify: (level, message) => notices.push(`${level}: ${message}`) });
	const call = async (): Promise<string> => {
		try {
			return (await summarizer.summarize({ prompt: 'p' })).text;
		} catch (error) {
			return `failed: ${(error as Error).message}`;
		}
	};
	return { clock, notices, primary, session, summarizer, call };
}

const FAILING = 'warning: pi-condense: summarizer model openai/gpt-mini failing, using session model anthropic/claude until it recovers';

describe('summarizer fallback to the session model (2.2.0+)', () => {
	it('before 2.2.0: one attempt, no fallback', async () => {
		const { call, session, summarizer, primary } = setUp('none', ['error']);
		assert.equal(summarizer, primary);
		assert.equal(await call(), 'failed: openai/gpt-mini: error');
		assert.equal(session.calls.length, 0);
	});

	it('a transient failure retries once on the session model, warns once, then stays there until the 10-minute probe recovers', async () => {
		const { call, clock, notices, primary, session } = setUp('fixed', ['timeout']);
		assert.equal(await call(), 'summary by anthropic/claude');
		assert.deepEqual(notices, [FAILING]);
		clock.now += 60_000;
		assert.equal(await call(), 'summary by anthropic/claude', 'in fallback: the session model answers');
		assert.equal(primary.calls.length, 1);
		clock.now += FALLBACK_COOLDOWN_MS;
		assert.equal(await call(), 'summary by openai/gpt-mini', 'the probe goes to the configured model');
		assert.deepEqual(notices, [FAILING, 'info: pi-condense: summarizer model openai/gpt-mini recovered']);
		assert.equal(session.calls.length, 2);
	});

	it('auth and unusable failures are not retried and change nothing', async () => {
		for (const kind of ['credentials', 'empty', 'length'] as const) {
			const { call, notices, session } = setUp('fixed', [kind]);
			assert.equal(await call(), `failed: openai/gpt-mini: ${kind}`);
			assert.equal(session.calls.length, 0, kind);
			assert.deepEqual(notices, []);
			assert.equal(await call(), 'summary by openai/gpt-mini', `${kind}: the configured model again`);
		}
	});

	it('both failing: the error stands, and the warning waits for the first call the session model answers', async () => {
		const { call, notices } = setUp('fixed', ['error'], ['error']);
		assert.equal(await call(), 'failed: anthropic/claude: error');
		assert.deepEqual(notices, []);
		assert.equal(await call(), 'summary by anthropic/claude');
		assert.deepEqual(notices, [FAILING]);
	});

	it('2.2.0 postpones the probe on every failed fallback call (the starvation defect); 2.2.1 does not', async () => {
		const probed: Record<string, boolean> = {};
		for (const rule of ['starving', 'fixed'] as const) {
			const { call, clock, primary } = setUp(rule, ['error'], ['ok', 'error']);
			await call(); // enters fallback at t0
			clock.now += FALLBACK_COOLDOWN_MS - 60_000;
			await call(); // a steady-state fallback call that fails
			clock.now += 60_000;
			await call(); // 10 minutes after entering fallback
			probed[rule] = primary.calls.length === 2;
		}
		assert.deepEqual(probed, { starving: false, fixed: true });
	});
});

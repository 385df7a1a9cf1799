import assert from 'node:assert/strict';
import { charsToTokens } from '../../../../src/engine/condense';
import { cacheImpactSteps, commonPrefixSteps, type CacheInputs } from '../../../../src/engine/preview';
import type { ContextMessage, Usage } from '../../../../src/engine/session/types';
import { assistant, result, text, user } from '../condense/builders';
import { runSteps } from '../../../../src/engine/steps';

const sizeOf = (m: ContextMessage): number => JSON.stringify(m).length;

/** The tokens the impact counts for `list[from, to)`: serialized sizes plus one separator each. */
function tokensOf(list: readonly ContextMessage[], from: number, to: number, size: (m: ContextMessage) => number): number {
	let chars = 0;
	for (let i = from; i < to; i++) {
		chars += size(list[i] as ContextMessage) + 1;
	}
	return charsToTokens(chars);
}
const usage = (input: number, cacheRead: number, cacheWrite: number): Usage => ({
	input, output: 10, cacheRead, cacheWrite, totalTokens: input + cacheRead + cacheWrite + 10, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});
const prices = { input: 3, cacheRead: 0.3, cacheWrite: 3.75 };
const long = (n: number): string => 'x'.repeat(n);

// A previous call of 5 messages; the next call adds a reply and a prompt. Pruning stubs message 2,
// so the large call after it must be prefilled again.
const u1 = user(1, long(400));
const a1 = assistant(2, text(long(200)));
const r1 = result('c1', 'bash', 3, long(4000));
const stub = result('c1', 'bash', 3, '[stub]');
const big = assistant(4, text(long(8000)));
const r2 = result('c2', 'bash', 5, 'ok');
const a2 = assistant(6, text(long(100)));
const u2 = user(7, long(80));

function inputs(overrides: Partial<CacheInputs> = {}): CacheInputs {
	return {
		next: [u1, a1, stub, big, r2, a2, u2],
		nextRaw: [u1, a1, r1, big, r2, a2, u2],
		previous: [u1, a1, r1, big, r2],
		previousRaw: [u1, a1, r1, big, r2],
		usage: usage(100, 3900, 0),
		previousCallAt: 3,
		pricing: { modelId: 'm', contextWindow: 200_000, cost: prices },
		sizeOf,
		...overrides,
	};
}

describe('cache impact of pruning', () => {
	it('breaks the cache at the first message that differs from the previous call', () => {
		const impact = runSteps(cacheImpactSteps(inputs()));
		assert.equal(impact.breakIndex, 2);
		assert.equal(impact.previousMessages, 5);
		assert.equal(impact.withPruning.cachedTokens, tokensOf([u1, a1], 0, 2, sizeOf));
		assert.equal(impact.withPruning.prefillTokens, tokensOf([stub, big, r2, a2, u2], 0, 5, sizeOf));
		assert.equal(impact.invalidatedTokens, tokensOf([r1, big, r2], 0, 3, sizeOf));
		assert.equal(impact.withoutPruning.cachedTokens, tokensOf([u1, a1, r1, big, r2], 0, 5, sizeOf));
		assert.equal(impact.withoutPruning.prefillTokens, tokensOf([a2, u2], 0, 2, sizeOf));
	});

	it('prices cached tokens at the cache-read price and the prefill at the cache-write price', () => {
		const impact = runSteps(cacheImpactSteps(inputs()));
		const previousTokens = tokensOf([u1, a1, r1, big, r2], 0, 5, sizeOf);
		const unseen = 4000 - previousTokens;
		assert.equal(impact.unseenPrefixTokens, unseen);
		const expected = ((unseen + impact.withPruning.cachedTokens) * 0.3 + impact.withPruning.prefillTokens * 3.75) / 1e6;
		assert.ok(Math.abs((impact.withPruning.cost ?? NaN) - expected) < 1e-12);
		assert.equal(impact.prefillPrice, 'cacheWrite');
		assert.ok((impact.extraCost ?? 0) > 0, 'prefilling the 2k-token call again costs more now');
		const saving = (tokensOf(inputs().nextRaw, 0, 7, sizeOf) - tokensOf(inputs().next, 0, 7, sizeOf)) * 0.3 / 1e6;
		assert.ok(Math.abs((impact.savingPerLaterCall ?? NaN) - saving) < 1e-12);
		assert.equal(impact.paybackCalls, Math.ceil((impact.extraCost ?? 0) / saving));
	});

	it('uses the input price when the model has no cache-write price, and no cost without prices', () => {
		const openAi = runSteps(cacheImpactSteps(inputs({ pricing: { modelId: 'm', contextWindow: 1, cost: { input: 2, cacheRead: 0.5, cacheWrite: 0 } } })));
		assert.equal(openAi.prefillPrice, 'input');
		const expected = ((openAi.unseenPrefixTokens + openAi.withPruning.cachedTokens) * 0.5 + openAi.withPruning.prefillTokens * 2) / 1e6;
		assert.ok(Math.abs((openAi.withPruning.cost ?? NaN) - expected) < 1e-12);
		const unpriced = runSteps(cacheImpactSteps(inputs({ pricing: undefined })));
		assert.equal(unpriced.withPruning.cost, undefined);
		assert.equal(unpriced.extraCost, undefined);
		assert.equal(unpriced.paybackCalls, undefined);
	});

	it('reports no break and no extra cost when pruning changed nothing since the previous call', () => {
		const impact = runSteps(cacheImpactSteps(inputs({ next: [u1, a1, r1, big, r2, a2, u2] })));
		assert.equal(impact.breakIndex, 5);
		assert.equal(impact.invalidatedTokens, 0);
		assert.equal(impact.extraCost, 0);
		assert.equal(impact.paybackCalls, undefined);
	});

	it('prefills everything when there was no previous call, and never counts a negative unseen prefix', () => {
		const first = runSteps(cacheImpactSteps(inputs({ previous: undefined, previousRaw: undefined, usage: undefined })));
		assert.equal(first.hasPreviousCall, false);
		assert.equal(first.breakIndex, 0);
		assert.equal(first.withPruning.cachedTokens, 0);
		assert.equal(first.unseenPrefixTokens, 0);
		assert.equal(runSteps(cacheImpactSteps(inputs({ usage: usage(1, 0, 0) }))).unseenPrefixTokens, 0);
	});

	it('compares equal copies as equal and a changed copy as different', () => {
		assert.equal(runSteps(commonPrefixSteps([u1, a1], [structuredClone(u1), structuredClone(a1)], sizeOf)), 2);
		assert.equal(runSteps(commonPrefixSteps([u1, a1], [u1, { ...a1, timestamp: 99 }], sizeOf)), 1);
	});
});

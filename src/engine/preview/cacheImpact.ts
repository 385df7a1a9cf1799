/**
 * What pruning costs the provider's prompt cache on the next call, as an estimate. Pure.
 *
 * A provider reuses the KV state of the longest prefix the new request shares, token for token,
 * with what it has cached from the previous request. So:
 *   - the break point is the first message of the next call's (pruned) context that differs from
 *     the previous call's (as it was sent, pi-condense's transform included);
 *   - everything before it is read from the cache, everything from it on is prefilled again;
 *   - the system prompt and tool definitions are not in the session file: their size is the last
 *     call's reported prompt tokens (input + cache read + cache write) minus our estimate of its
 *     messages, and they count as cached in both scenarios;
 *   - cached tokens cost the cache-read price; prefilled tokens the cache-write price when the
 *     model has one (Anthropic writes the new prefix to its cache), else the input price;
 *   - "without pruning" is the same call when pi-condense never pruned: Pi's raw context against
 *     the previous raw context, which normally only grew at its end.
 * Tokens are pi-condense's estimate (serialized characters / 4); prices are USD per million tokens
 * from pi-ai's model table. A cache expires (Anthropic: 5 minutes by default; OpenAI: 5–10 minutes
 * idle); after that every token is prefilled either way.
 */
import { charsToTokens } from '../condense/measure/compactFormat';
import type { ContextMessage, Usage } from '../session/types';
import type { CacheImpact, CallEstimate, PricePerMillion } from './snapshotTypes';
import { Pacer, type Steps } from '../steps';

export interface PricingInfo {
	readonly modelId: string;
	readonly contextWindow: number;
	readonly cost: PricePerMillion;
}

/** Serialized size of `list[index]`, which is `message`. */
export type MessageSize = (message: ContextMessage, index: number, list: readonly ContextMessage[]) => number;

export interface CacheInputs {
	/** The next call's context, pruned (what the preview shows). */
	readonly next: readonly ContextMessage[];
	/** The next call's context without pruning (Pi's own). */
	readonly nextRaw: readonly ContextMessage[];
	/** The previous call's context as it was sent, and without pruning; undefined when there was none. */
	readonly previous: readonly ContextMessage[] | undefined;
	readonly previousRaw: readonly ContextMessage[] | undefined;
	/** Usage Pi recorded for the previous call. */
	readonly usage: Usage | undefined;
	readonly previousCallAt: number | undefined;
	readonly pricing: PricingInfo | undefined;
	/** `JSON.stringify(message).length` of `list[index]` (the caller may look it up by position). */
	readonly sizeOf: MessageSize;
}

/**
 * What the next call reuses of the previous one's prompt cache, in steps: the prefix scans compare
 * two renders' messages by content and measure every message of both calls.
 */
export function* cacheImpactSteps(inputs: CacheInputs): Steps<CacheImpact> {
	const { next, nextRaw, previous, previousRaw, sizeOf, pricing } = inputs;
	const breakIndex = previous ? yield* commonPrefixSteps(previous, next, sizeOf) : 0;
	const rawBreak = previousRaw ? yield* commonPrefixSteps(previousRaw, nextRaw, sizeOf) : 0;
	// Every size the estimates read, measured in steps once, as running sums: the estimates below then
	// read any range in one step (summing 40,000 cached sizes seven times was tens of milliseconds).
	const sums = new Map<readonly ContextMessage[], Float64Array>();
	const pacer = new Pacer();
	for (const list of [previous ?? [], next, nextRaw]) {
		const sum = new Float64Array(list.length + 1);
		for (let i = 0; i < list.length; i++) {
			const size = sizeOf(list[i] as ContextMessage, i, list);
			sum[i + 1] = (sum[i] as number) + size + 1;
			if (pacer.due(size)) {
				yield;
			}
		}
		sums.set(list, sum);
	}
	const tokensIn = (list: readonly ContextMessage[], from: number, to: number): number => {
		const sum = sums.get(list);
		return charsToTokens(sum ? (sum[to] as number) - (sum[from] as number) : 0);
	};
	const previousTokens = previous ? tokensIn(previous, 0, previous.length) : 0;
	const promptTokens = inputs.usage ? inputs.usage.input + inputs.usage.cacheRead + inputs.usage.cacheWrite : 0;
	const unseenPrefixTokens = previous && inputs.usage ? Math.max(0, promptTokens - previousTokens) : 0;
	const prices = pricing?.cost;
	const prefillPrice = prices === undefined ? undefined : prices.cacheWrite > 0 ? 'cacheWrite' : 'input';
	const estimate = (list: readonly ContextMessage[], at: number): CallEstimate => {
		const cachedTokens = tokensIn(list, 0, at);
		const prefillTokens = tokensIn(list, at, list.length);
		const cost = prices === undefined
			? undefined
			: ((unseenPrefixTokens + cachedTokens) * prices.cacheRead + prefillTokens * (prefillPrice === 'cacheWrite' ? prices.cacheWrite : prices.input)) / 1e6;
		return { cachedTokens, prefillTokens, cost };
	};
	const withPruning = estimate(next, breakIndex);
	const withoutPruning = estimate(nextRaw, rawBreak);
	const extraCost = withPruning.cost !== undefined && withoutPruning.cost !== undefined ? withPruning.cost - withoutPruning.cost : undefined;
	const smallerBy = tokensIn(nextRaw, 0, nextRaw.length) - tokensIn(next, 0, next.length);
	const savingPerLaterCall = prices === undefined ? undefined : (smallerBy * prices.cacheRead) / 1e6;
	return {
		hasPreviousCall: previous !== undefined,
		breakIndex,
		previousMessages: previous?.length ?? 0,
		invalidatedTokens: previous ? tokensIn(previous, Math.min(breakIndex, previous.length), previous.length) : 0,
		unseenPrefixTokens,
		withPruning,
		withoutPruning,
		extraCost,
		savingPerLaterCall,
		paybackCalls: extraCost !== undefined && savingPerLaterCall !== undefined && extraCost > 0 && savingPerLaterCall > 0
			? Math.ceil(extraCost / savingPerLaterCall)
			: undefined,
		prices,
		prefillPrice,
		pricingModel: pricing?.modelId,
		contextWindow: pricing?.contextWindow,
		previousCallAt: inputs.previousCallAt,
	};
}

/** Number of leading messages two contexts share exactly (as serialized). */
export function* commonPrefixSteps(a: readonly ContextMessage[], b: readonly ContextMessage[], sizeOf: MessageSize): Steps<number> {
	const n = Math.min(a.length, b.length);
	const pacer = new Pacer();
	for (let i = 0; i < n; i++) {
		const x = a[i] as ContextMessage;
		const y = b[i] as ContextMessage;
		if (pacer.due(x === y ? 0 : sizeOf(x, i, a))) {
			yield;
		}
		if (x !== y && (sizeOf(x, i, a) !== sizeOf(y, i, b) || JSON.stringify(x) !== JSON.stringify(y))) {
			return i;
		}
	}
	return n;
}

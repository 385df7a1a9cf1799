/**
 * How long a provider keeps a prompt-cache entry after its last use: the one table the costs
 * engine, the markers and (later) the status bar's countdown read. Where each figure comes from is
 * in docs/costs.md ("Cache lifetimes"). Pure.
 *
 * A lifetime is a range: `likelyMs` is when the entry may already be gone, `surelyMs` when it surely
 * is (equal where the provider documents one fixed figure). An idle gap longer than `surelyMs` is
 * "expired"; between the two it is "may have expired"; the account treats a gap as expired from
 * `likelyMs`, and says so.
 */
import type { RequestPoint } from './requestTypes';

export interface CacheLifetime {
	readonly likelyMs: number;
	readonly surelyMs: number;
	/** Which row of the table answered: shown beside figures that depend on it. */
	readonly rule: CacheLifetimeRule;
}

export type CacheLifetimeRule = 'anthropic-5m' | 'anthropic-1h' | 'openai' | 'google' | 'unknown';

const MINUTE = 60_000;

/**
 * The table. `anthropic-1h` applies when the request asked for the 1-hour lifetime, which the
 * session shows by a 1-hour cache write (pi-ai's `cacheWrite1h`, or cache writes priced at twice
 * the input price, Anthropic's 1-hour rate).
 */
export const CACHE_LIFETIMES: Readonly<Record<CacheLifetimeRule, Omit<CacheLifetime, 'rule'>>> = {
	// Anthropic prompt caching: "The cache has a 5-minute lifetime, refreshed each time the cached content is used";
	// pi-ai 1.6.0's catalog: promptCache { short: 300, long: 3600 } on every Anthropic model.
	'anthropic-5m': { likelyMs: 5 * MINUTE, surelyMs: 5 * MINUTE },
	// Anthropic: `cache_control: { type: "ephemeral", ttl: "1h" }` (pi-ai sends it for cacheRetention "long").
	'anthropic-1h': { likelyMs: 60 * MINUTE, surelyMs: 60 * MINUTE },
	// OpenAI prompt caching: cached prefixes "generally remain active for 5 to 10 minutes of inactivity,
	// up to a maximum of one hour during off-peak periods".
	'openai': { likelyMs: 5 * MINUTE, surelyMs: 10 * MINUTE },
	// Gemini implicit caching keeps no documented lifetime; explicit caches default to 1 hour. Treated as OpenAI's range.
	'google': { likelyMs: 5 * MINUTE, surelyMs: 60 * MINUTE },
	// Any other provider: the shortest lifetime above, so an expired cache is never assumed warm for long.
	'unknown': { likelyMs: 5 * MINUTE, surelyMs: 10 * MINUTE },
};

type LifetimeFacts = Pick<RequestPoint, 'provider' | 'model' | 'api' | 'tokens' | 'cost'>;

/** Which provider's caching a model follows: the table's row, before the 1-hour question. */
export type CacheFamily = 'anthropic' | 'openai' | 'google' | 'unknown';

/** One lifetime object per row: every request shares it. */
const LIFETIME_BY_RULE: Readonly<Record<CacheLifetimeRule, CacheLifetime>> = {
	'anthropic-5m': { ...CACHE_LIFETIMES['anthropic-5m'], rule: 'anthropic-5m' },
	'anthropic-1h': { ...CACHE_LIFETIMES['anthropic-1h'], rule: 'anthropic-1h' },
	'openai': { ...CACHE_LIFETIMES['openai'], rule: 'openai' },
	'google': { ...CACHE_LIFETIMES['google'], rule: 'google' },
	'unknown': { ...CACHE_LIFETIMES['unknown'], rule: 'unknown' },
};

/**
 * The lifetime of the cache entry a request wrote or refreshed. A request that wrote nothing shows
 * no lifetime of its own: `previous` (the lifetime of the last request to the same model) answers
 * for it, since a session keeps its retention setting. `family`: the request's `cacheFamilyOf`, when
 * the caller already knows it (the same for every request to one model).
 */
export function cacheLifetimeOf(request: LifetimeFacts, previous?: CacheLifetime, family: CacheFamily = cacheFamilyOf(request)): CacheLifetime {
	if (family !== 'anthropic') {
		return LIFETIME_BY_RULE[family];
	}
	const hour = wroteForAnHour(request);
	const rule = hour === undefined ? (previous?.rule === 'anthropic-1h' ? 'anthropic-1h' : 'anthropic-5m') : hour ? 'anthropic-1h' : 'anthropic-5m';
	return LIFETIME_BY_RULE[rule];
}

/** The provider whose cache a request used, from its API, provider and model names. */
export function cacheFamilyOf(request: Pick<RequestPoint, 'provider' | 'model' | 'api'>): CacheFamily {
	const provider = request.provider.toLowerCase();
	const api = (request.api ?? '').toLowerCase();
	const model = request.model.toLowerCase();
	if (api === 'anthropic-messages' || provider === 'anthropic' || model.includes('claude')) {
		return 'anthropic';
	}
	if (api.startsWith('openai') || api.startsWith('azure-openai') || provider === 'openai' || provider === 'openai-codex' || provider === 'azure-openai-responses' || /^(gpt|o\d)/.test(model)) {
		return 'openai';
	}
	if (api.startsWith('google') || provider.startsWith('google') || model.startsWith('gemini')) {
		return 'google';
	}
	return 'unknown';
}

/**
 * A 1-hour write: pi-ai records its part (`cacheWrite1h`); older sessions show it in the price, as
 * Anthropic bills a 1-hour write at 2x the input price and a 5-minute one at 1.25x.
 */
function wroteForAnHour({ tokens, cost }: Pick<RequestPoint, 'tokens' | 'cost'>): boolean | undefined {
	if (tokens.cacheWrite <= 0) {
		return undefined;
	}
	if (tokens.cacheWrite1h !== undefined) {
		return tokens.cacheWrite1h > 0;
	}
	if (tokens.input <= 0 || cost.input <= 0 || cost.cacheWrite <= 0) {
		return undefined;
	}
	const ratio = (cost.cacheWrite / tokens.cacheWrite) / (cost.input / tokens.input);
	return ratio > 1.75;
}

/** Whether an idle gap of `gapMs` after a request outlived its cache entry (from the likely end). */
export function cacheExpiredAfter(lifetime: CacheLifetime, gapMs: number): boolean {
	return gapMs > lifetime.likelyMs;
}

/**
 * What a token cost a request: from the cost Pi recorded on it where it recorded one, else from the
 * same model's other requests in the session, else from the model catalog the caller passes in
 * (pi-ai's, with models.json applied: loaded by `src/node/llm`, never here). Pure.
 */
import { modelKeyOf, type RequestPoint } from './requestTypes';

/** USD per million tokens, as pi-ai's catalog has it (`model.cost`). */
export interface ModelPrice {
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
}

/** Catalog prices by `provider/model`. */
export type PriceBook = ReadonlyMap<string, ModelPrice>;

export const NO_PRICES: PriceBook = new Map();

/** USD per token of one request. */
export interface TokenPrices {
	readonly input: number;
	readonly output: number;
	readonly cacheRead: number;
	readonly cacheWrite: number;
	/** Where the figures came from: the request's own cost, the session's other requests, the catalog, or nowhere (all 0). */
	readonly source: 'recorded' | 'session' | 'catalog' | 'unknown';
}

type Bucket = 'input' | 'output' | 'cacheRead' | 'cacheWrite';
const BUCKETS: readonly Bucket[] = ['input', 'output', 'cacheRead', 'cacheWrite'];

/**
 * Prices every request. A bucket the request used and paid for is priced from its own cost; a
 * bucket it did not use takes the last recorded price of the same model in the session, then the
 * catalog. A request that recorded no cost at all (cost.total 0) is priced from the catalog first.
 */
export function requestPrices(requests: readonly RequestPoint[], book: PriceBook): TokenPrices[] {
	const seen = new Map<string, Partial<Record<Bucket, number>>>();
	for (const request of requests) {
		if (request.cost.total > 0) {
			const known = seen.get(modelKeyOf(request)) ?? {};
			for (const bucket of BUCKETS) {
				const tokens = request.tokens[bucket];
				if (tokens > 0) {
					known[bucket] = request.cost[bucket] / tokens;
				}
			}
			seen.set(modelKeyOf(request), known);
		}
	}
	return requests.map((request) => pricesOf(request, seen.get(modelKeyOf(request)) ?? {}, book.get(modelKeyOf(request))));
}

function pricesOf(request: RequestPoint, session: Partial<Record<Bucket, number>>, catalog: ModelPrice | undefined): TokenPrices {
	const recorded = request.cost.total > 0;
	const source: TokenPrices['source'] = recorded ? 'recorded' : catalog ? 'catalog' : Object.keys(session).length > 0 ? 'session' : 'unknown';
	const priceOf = (bucket: Bucket): number => {
		const tokens = request.tokens[bucket];
		if (recorded && tokens > 0) {
			return request.cost[bucket] / tokens;
		}
		if (!recorded && catalog) {
			return catalog[bucket] / 1e6;
		}
		const fromSession = session[bucket];
		if (fromSession !== undefined) {
			return fromSession;
		}
		return catalog ? catalog[bucket] / 1e6 : 0;
	};
	return { input: priceOf('input'), output: priceOf('output'), cacheRead: priceOf('cacheRead'), cacheWrite: priceOf('cacheWrite'), source };
}

/**
 * What a token of this request's prompt cost when the cache did not hold it: the rate of what it paid
 * for outside the cache (input and cache write together, as Pi 1.6.0's cache-miss notice prices a
 * miss), else the cache-write price, else the input price.
 */
export function paidRate(request: RequestPoint, prices: TokenPrices): number {
	const paid = request.tokens.input + request.tokens.cacheWrite;
	if (paid > 0 && request.cost.total > 0) {
		return (request.cost.input + request.cost.cacheWrite) / paid;
	}
	return prices.cacheWrite > 0 ? prices.cacheWrite : prices.input;
}

/** What a token read from the cache cost this request (the input price where the provider has no cache price). */
export function readRate(request: RequestPoint, prices: TokenPrices): number {
	if (request.tokens.cacheRead > 0 && request.cost.total > 0) {
		return request.cost.cacheRead / request.tokens.cacheRead;
	}
	return prices.cacheRead > 0 || prices.cacheWrite > 0 ? prices.cacheRead : prices.input;
}

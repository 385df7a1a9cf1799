/**
 * What a token cost a request: from the cost Pi recorded on it where it recorded one, else from the
 * same model's other requests in the session, else from the model catalog the caller passes in
 * (pi-ai's, with models.json applied: loaded by `src/node/llm`, never here). Pure.
 */
import { modelKeyOf, type RequestPoint } from './requestTypes';
import { paced, type Steps } from '../steps';

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
 * In steps: a long session has tens of thousands of requests.
 */
export function* requestPricesSteps(requests: readonly RequestPoint[], book: PriceBook): Steps<TokenPrices[]> {
	const seen = new Map<string, Partial<Record<Bucket, number>>>();
	for (let i = 0; i < requests.length; i++) {
		if (paced(i)) {
			yield;
		}
		const request = requests[i] as RequestPoint;
		if (request.cost.total > 0) {
			const key = modelKeyOf(request);
			const known = seen.get(key) ?? {};
			for (const bucket of BUCKETS) {
				const tokens = request.tokens[bucket];
				if (tokens > 0) {
					known[bucket] = request.cost[bucket] / tokens;
				}
			}
			seen.set(key, known);
		}
	}
	const prices: TokenPrices[] = new Array<TokenPrices>(requests.length);
	for (let i = 0; i < requests.length; i++) {
		if (paced(i)) {
			yield;
		}
		const request = requests[i] as RequestPoint;
		const key = modelKeyOf(request);
		prices[i] = pricesOf(request, seen.get(key) ?? {}, book.get(key));
	}
	return prices;
}

/** One request's prices from its own cost, else the catalog (without the session's other requests). */
export function singleRequestPrices(request: RequestPoint, book: PriceBook): TokenPrices {
	return pricesOf(request, {}, book.get(modelKeyOf(request)));
}

function pricesOf(request: RequestPoint, session: Partial<Record<Bucket, number>>, catalog: ModelPrice | undefined): TokenPrices {
	const recorded = request.cost.total > 0;
	const source: TokenPrices['source'] = recorded ? 'recorded' : catalog ? 'catalog' : Object.keys(session).length > 0 ? 'session' : 'unknown';
	return {
		input: bucketPrice(request, 'input', recorded, session, catalog),
		output: bucketPrice(request, 'output', recorded, session, catalog),
		cacheRead: bucketPrice(request, 'cacheRead', recorded, session, catalog),
		cacheWrite: bucketPrice(request, 'cacheWrite', recorded, session, catalog),
		source,
	};
}

function bucketPrice(request: RequestPoint, bucket: Bucket, recorded: boolean, session: Partial<Record<Bucket, number>>, catalog: ModelPrice | undefined): number {
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

/** The models among `requests` that used tokens and recorded no cost. */
export function* unpricedModelsSteps(requests: readonly RequestPoint[]): Steps<string[]> {
	const wanted = new Set<string>();
	for (const [i, request] of requests.entries()) {
		if (paced(i)) {
			yield;
		}
		const used = request.tokens.input + request.tokens.output + request.tokens.cacheRead + request.tokens.cacheWrite;
		if (used > 0 && request.cost.total === 0 && request.provider !== '' && request.model !== '') {
			wanted.add(modelKeyOf(request));
		}
	}
	return [...wanted];
}

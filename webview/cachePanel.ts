/**
 * The cache-impact estimate: where pruning breaks the provider's prefix cache, what must be
 * prefilled again, and the next call's input cost with and without pruning, with how it is
 * computed.
 */
import type { CacheImpact, PageSnapshot } from '../src/shared/protocol';
import { el, figure } from './dom';
import { perMillion, tokens, usd } from './format';
import { relativeTime } from '../src/base/relativeTime';

export function cachePanel(snapshot: PageSnapshot, onJump: (index: number) => void): HTMLElement {
	const cache = snapshot.cache;
	const breaksInside = cache.breakIndex < snapshot.rowCounts.after;
	const jump = el('button', { className: 'link-button', attrs: { type: 'button' }, text: `#${cache.breakIndex}` });
	jump.addEventListener('click', () => onJump(cache.breakIndex));
	const parts: (HTMLElement | null)[] = [
		el('h2', { text: 'Prompt cache (estimate)' }),
		cache.hasPreviousCall
			? el('div', {}, [
				el('span', { text: 'Cache breaks at message ' }),
				breaksInside ? jump : el('span', { text: 'the end (nothing changed)' }),
				figure('cache.break', '', cache.breakIndex, 'hidden-figure'),
				el('span', { text: ` of ${snapshot.rowCounts.after}: ` }),
				figure('cache.prefill', tokens(cache.withPruning.prefillTokens), cache.withPruning.prefillTokens, 'big'),
				el('span', { text: ' tokens to prefill on the next call, ' }),
				figure('cache.invalidated', tokens(cache.invalidatedTokens), cache.invalidatedTokens),
				el('span', { text: ' of them cached before and invalidated by pruning.' }),
			])
			: el('p', { text: 'No earlier call in this session: the whole context is prefilled on the next call.' }),
		costTable(cache, modelName(snapshot)),
		paybackLine(cache),
		cache.previousCallAt !== undefined ? el('p', { className: 'note', text: `Previous call ${relativeTime(cache.previousCallAt, snapshot.computedAt)}. Caches expire (Anthropic: 5 min by default; OpenAI: 5–10 min idle); after that everything is prefilled either way.` }) : null,
		explanation(cache, modelName(snapshot)),
	];
	return el('section', { className: 'panel cache', attrs: { 'aria-label': 'Prompt cache impact' } }, parts);
}

/** The model the prices are of: pi-ai's name for it, else the one the last call recorded. */
function modelName(snapshot: PageSnapshot): string {
	const usage = snapshot.usage;
	return snapshot.cache.pricingModel ?? (usage ? `${usage.provider}/${usage.model}` : 'the session\'s model');
}

function costTable(cache: CacheImpact, model: string): HTMLElement {
	if (!cache.prices) {
		return el('p', { className: 'note', text: noPricesText(cache, model) });
	}
	const row = (name: string, label: string, tokensCached: number, tokensPrefill: number, cost: number | undefined): HTMLElement => el('tr', {}, [
		el('th', { text: label }),
		el('td', { text: tokens(tokensCached) }),
		el('td', { text: tokens(tokensPrefill) }),
		el('td', {}, [figure(`cache.${name}`, usd(cost), cost)]),
	]);
	return el('table', { className: 'cost-table' }, [
		el('thead', {}, [el('tr', {}, [el('th', { text: 'Next call' }), el('th', { text: 'cached' }), el('th', { text: 'prefill' }), el('th', { text: cache.priceSource === 'last-call' ? 'input cost (at the last call\'s prices)' : 'input cost (pi-ai prices)' })])]),
		el('tbody', {}, [
			row('costWith', 'with pruning', cache.withPruning.cachedTokens, cache.withPruning.prefillTokens, cache.withPruning.cost),
			row('costWithout', 'without pruning', cache.withoutPruning.cachedTokens, cache.withoutPruning.prefillTokens, cache.withoutPruning.cost),
		]),
	]);
}

/** Why there is no cost: never "no prices" beside a cost Pi recorded. */
function noPricesText(cache: CacheImpact, model: string): string {
	return cache.lastCallCost !== undefined && cache.lastCallCost > 0
		? `Token figures only: pi-ai has no prices for ${model}, and the cost Pi recorded for the last call (${usd(cache.lastCallCost)}, under Last call) does not say the cache-read and input prices apart (that call read nothing from the cache or sent no new input).`
		: `Token figures only: pi-ai has no prices for ${model}, and Pi recorded no cost for the last call.`;
}

function paybackLine(cache: CacheImpact): HTMLElement | null {
	if (cache.extraCost === undefined) {
		return null;
	}
	const saving = cache.savingPerLaterCall ?? 0;
	if (cache.extraCost <= 0) {
		return el('p', {}, [el('span', { text: 'Pruning makes the next call cheaper at once (' }), figure('cache.extra', usd(cache.extraCost), cache.extraCost), el('span', { text: `), and each later call saves ${usd(saving)}.` })]);
	}
	return el('p', {}, [
		el('span', { text: 'The cache break costs ' }),
		figure('cache.extra', usd(cache.extraCost), cache.extraCost),
		el('span', { text: ` more now; each later call saves ${usd(saving)}` }),
		cache.paybackCalls !== undefined ? el('span', {}, [el('span', { text: ', paid back after ' }), figure('cache.payback', String(cache.paybackCalls), cache.paybackCalls), el('span', { text: ' call(s).' })]) : el('span', { text: '.' }),
	]);
}

function explanation(cache: CacheImpact, model: string): HTMLElement {
	const prices = cache.prices;
	const source = cache.priceSource === 'last-call' ? 'as Pi recorded the last call\'s cost, token kind by kind: pi-ai has no prices for it' : 'pi-ai';
	const priceText = prices
		? `Prices (${model}, ${source}): input ${perMillion(prices.input)}, cache read ${perMillion(prices.cacheRead)}, cache write ${perMillion(prices.cacheWrite)}. Prefilled tokens are charged at the ${cache.prefillPrice === 'cacheWrite' ? 'cache-write price (the provider writes the new prefix to its cache)' : 'input price (the model has no cache-write price)'}.`
		: noPricesText(cache, model);
	return el('details', { className: 'how' }, [
		el('summary', { text: 'How this is estimated' }),
		el('ul', {}, [
			el('li', { text: 'Providers reuse the longest prefix of a request that matches their cache token for token; the first changed message is the break point.' }),
			el('li', { text: 'The previous call is rebuilt from the session: the context before the last assistant reply, rendered with the pi-condense entries that existed when it was sent.' }),
			el('li', { text: `Tokens are estimated as serialized characters / 4. The system prompt and tool definitions are not in the session file: ~${tokens(cache.unseenPrefixTokens)} tokens, the last call's reported prompt tokens minus our estimate of its messages, counted as cached.` }),
			el('li', { text: '"Without pruning" is the same call had pi-condense never pruned: Pi\'s raw context, whose cached prefix only grows.' }),
			el('li', { text: priceText }),
		]),
	]);
}

/**
 * What the Costs panel shows, as plain data the page can take as it is: one column per figure of the
 * requests (the chart draws them, the table lists them), the markers between them with their text,
 * each prune's account as text, pruning's running balance per request, and the summary's lines.
 * First from the overview alone (`prunes` undefined: still being worked out), then with the
 * accounts. Every text is made here, so the page only places it (as text: a model name is the
 * session's, never markup). Pure.
 */
import type { SessionOverview } from './costsLedger';
import { markerText, netText, pruneWhat, summaryLines, usdRange } from './costsTexts';
import type { MarkerKind } from './markerTypes';
import { verdictText, type PruneAccount, type PruneVerdict } from './pruneAccount';
import { modelKeyOf, type RequestPoint } from './requestTypes';
import { mapSteps, paced, type Steps } from '../steps';
import type { SessionCosts } from './sessionCosts';

/** The requests, one column per figure: entry `i` of every column is request `i`. */
export interface CostsColumns {
	/** Epoch ms the request was made. */
	readonly at: readonly number[];
	/** input + cache read + cache write: the prompt the provider saw. */
	readonly context: readonly number[];
	readonly cacheRead: readonly number[];
	readonly cacheWrite: readonly number[];
	readonly output: readonly number[];
	/** USD as recorded. */
	readonly cost: readonly number[];
	/** Index into `CostsView.labels`: what made the request (`provider/model`, or `cache_warm provider/model`). */
	readonly label: readonly number[];
}

export interface CostsMarkerView {
	readonly kind: MarkerKind;
	/** Index of the first request after it (the request count when none followed). */
	readonly beforeRequest: number;
	readonly text: string;
}

export interface PruneView {
	/** 1-based, in file order. */
	readonly number: number;
	/** The first request sent with it; undefined when none followed. */
	readonly firstRequest: number | undefined;
	readonly what: string;
	readonly removed: string;
	readonly cost: string;
	readonly saved: string;
	readonly net: string;
	/** The middle figure of the net effect, USD. */
	readonly netMid: number;
	readonly verdict: string;
	readonly outcome: PruneVerdict['kind'];
}

export interface CostsView {
	readonly requests: CostsColumns;
	readonly labels: readonly string[];
	readonly markers: readonly CostsMarkerView[];
	/** Each prune's account; undefined while they are worked out. */
	readonly prunes: readonly PruneView[] | undefined;
	/** Pruning's running balance (all prunes, middle figure, USD) after each request; undefined with the prunes. */
	readonly balance: readonly number[] | undefined;
	/** `Spend`, `Cache hit rate`… with their text. */
	readonly summary: readonly { readonly label: string; readonly text: string }[];
}

/** The panel's data from the overview (first paint) or from the whole costs; a long pass on a large session (tens of thousands of requests). */
export function* costsViewSteps(overview: SessionOverview, costs?: SessionCosts): Steps<CostsView> {
	const { requests, markers } = overview.timeline;
	const summary = costs?.summary ?? overview.summary;
	const columns = yield* requestColumnsSteps(requests);
	const markerViews = yield* mapSteps(markers, (marker): CostsMarkerView => ({ kind: marker.kind, beforeRequest: marker.beforeRequest, text: markerText(marker) }));
	return {
		...columns,
		markers: markerViews,
		prunes: costs && (yield* mapSteps(costs.accounts, pruneView)),
		balance: costs && (yield* runningBalanceSteps(costs.accounts, requests.length)),
		summary: summaryPairs(summaryLines(summary)),
	};
}

function* requestColumnsSteps(requests: readonly RequestPoint[]): Steps<Pick<CostsView, 'requests' | 'labels'>> {
	const labels: string[] = [];
	const labelIndex = new Map<string, number>();
	const columns = { at: [] as number[], context: [] as number[], cacheRead: [] as number[], cacheWrite: [] as number[], output: [] as number[], cost: [] as number[], label: [] as number[] };
	for (const [i, request] of requests.entries()) {
		if (paced(i)) {
			yield;
		}
		const name = request.kind === 'reply' ? modelKeyOf(request) : request.kind === 'usage' ? `${request.usageKind ?? 'usage'} ${modelKeyOf(request)}` : `${request.kind} ${modelKeyOf(request)}`;
		let index = labelIndex.get(name);
		if (index === undefined) {
			index = labels.length;
			labels.push(name);
			labelIndex.set(name, index);
		}
		columns.at.push(request.at);
		columns.context.push(request.contextTokens);
		columns.cacheRead.push(request.tokens.cacheRead);
		columns.cacheWrite.push(request.tokens.cacheWrite);
		columns.output.push(request.tokens.output);
		columns.cost.push(request.cost.total);
		columns.label.push(index);
	}
	return { requests: columns, labels };
}

function pruneView(account: PruneAccount, i: number): PruneView {
	const measured = account.firstRequest !== undefined;
	return {
		number: i + 1,
		firstRequest: account.firstRequest,
		what: pruneWhat(account.prune),
		removed: measured ? `~${Math.round(account.removedTokens.mid).toLocaleString('en-US')} tokens` : '—',
		cost: !measured ? '—' : account.cold === undefined ? usdRange(account.cacheCost) : 'free (cache cold)',
		saved: measured ? usdRange(account.savings) : '—',
		net: measured ? netText(account.net) : '—',
		netMid: account.net.mid,
		verdict: verdictText(account.verdict),
		outcome: account.verdict.kind,
	};
}

/** Σ over prunes of each one's balance after request `r` (0 before its first request, its last balance after). */
export function* runningBalanceSteps(accounts: readonly PruneAccount[], requestCount: number): Steps<number[]> {
	const delta = new Array<number>(requestCount + 1).fill(0);
	let seen = 0;
	for (const account of accounts) {
		let previous = 0;
		for (const step of account.balance) {
			if (paced(seen++)) {
				yield;
			}
			if (step.request >= 0 && step.request < requestCount) {
				delta[step.request] = (delta[step.request] as number) + step.usd - previous;
				previous = step.usd;
			}
		}
	}
	const balance: number[] = [];
	let sum = 0;
	for (let r = 0; r < requestCount; r++) {
		if (paced(r)) {
			yield;
		}
		sum += delta[r] as number;
		balance.push(sum);
	}
	return balance;
}

/** `Spend: $1.20 (…)` as a label and its text; a line without a label continues the one before. */
function summaryPairs(lines: readonly string[]): { label: string; text: string }[] {
	const pairs: { label: string; text: string }[] = [];
	for (const line of lines.map((text) => text.trim())) {
		const colon = line.indexOf(': ');
		const previous = pairs.at(-1);
		if (colon < 0 && previous) {
			previous.text = `${previous.text}; ${line}`;
		} else {
			pairs.push(colon < 0 ? { label: line, text: '' } : { label: capitalized(line.slice(0, colon)), text: line.slice(colon + 2) });
		}
	}
	return pairs;
}

const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

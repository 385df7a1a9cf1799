/**
 * The Costs panel's tables, beside the chart and holding the same data for the keyboard and a screen
 * reader: the session's summary, each prune's account (a button goes to the request it was first
 * sent with), and the requests a page at a time with the markers between them as rows of their own.
 * Every text is set as text (a model name comes from the session file).
 */
import type { CostsView } from '../src/shared/protocol';
import { el, figure } from './dom';
import { tokens, usd } from './format';

/** Requests per page of the table: a 100 MB session has thousands; a page stays quick to read and to paint. */
export const REQUESTS_PER_PAGE = 100;

const COLUMNS = ['Request', 'Time', 'Model', 'Context', 'Cache read', 'Cache write', 'Output', 'Cost'];

export function summaryList(view: CostsView): HTMLElement {
	return el('dl', { className: 'costs-summary' }, view.summary.flatMap((line, i) => [
		el('dt', { text: line.label }),
		el('dd', {}, [figure(`costs.summary.${i}`, line.text)]),
	]));
}

export function prunesTable(view: CostsView, goTo: (request: number) => void): HTMLElement {
	if (view.prunes === undefined) {
		const prunes = view.markers.filter((marker) => marker.kind === 'prune').length;
		return el('p', { className: 'note', attrs: { role: 'status' }, text: prunes === 0 ? 'No prune in this session.' : `Working out what each of the ${prunes} prunes cost and saved…` });
	}
	if (view.prunes.length === 0) {
		return el('p', { className: 'note', text: 'No prune in this session.' });
	}
	const head = ['Prune', 'First sent with', 'Wrote', 'Removed', 'Cache cost', 'Saved', 'Net', 'Balance'];
	return el('table', { className: 'costs-table prunes' }, [
		el('caption', { text: 'Each prune: what it cost, what it saved, and whether it paid back' }),
		el('thead', {}, [el('tr', {}, head.map((name) => el('th', { text: name, attrs: { scope: 'col' } })))]),
		el('tbody', {}, view.prunes.map((prune) => {
			const first = prune.firstRequest;
			const go = first === undefined ? el('span', { text: 'none followed' }) : el('button', { className: 'link-button', attrs: { type: 'button', 'aria-label': `Show request ${first + 1} in the requests table` }, text: `request ${first + 1}` });
			if (first !== undefined) {
				go.addEventListener('click', () => goTo(first));
			}
			return el('tr', { className: `outcome-${prune.outcome}` }, [
				el('th', { text: `P${prune.number}`, attrs: { scope: 'row' } }),
				el('td', {}, [go]),
				el('td', { text: prune.what }),
				el('td', { text: prune.removed }),
				el('td', { text: prune.cost }),
				el('td', { text: prune.saved }),
				el('td', {}, [figure(`costs.prune.${prune.number}.net`, prune.net, prune.netMid)]),
				el('td', {}, [figure(`costs.prune.${prune.number}.verdict`, prune.verdict)]),
			]);
		})),
	]);
}

/**
 * Requests `page * REQUESTS_PER_PAGE` onwards, with the markers before each (and, on the last page,
 * those after the last request). `highlight` marks one request's row (a prune's "request N").
 */
export function requestsTable(view: CostsView, page: number, highlight: number | undefined): HTMLTableElement {
	const { requests, labels, markers } = view;
	const count = requests.at.length;
	const start = page * REQUESTS_PER_PAGE;
	const end = Math.min(count, start + REQUESTS_PER_PAGE);
	const rows: HTMLElement[] = [];
	let next = markers.findIndex((marker) => marker.beforeRequest >= start);
	next = next < 0 ? markers.length : next;
	const markerRows = (upTo: number): void => {
		for (; next < markers.length && (markers[next]?.beforeRequest ?? Infinity) <= upTo; next++) {
			const marker = markers[next];
			if (marker) {
				rows.push(el('tr', { className: `marker marker-${marker.kind}` }, [el('td', { attrs: { colspan: String(COLUMNS.length) }, text: `── ${marker.text}` })]));
			}
		}
	};
	for (let i = start; i < end; i++) {
		markerRows(i);
		const row = el('tr', { className: i === highlight ? 'highlight' : '', data: { request: String(i) } }, [
			el('th', { text: String(i + 1), attrs: { scope: 'row' } }),
			el('td', { text: timeText(requests.at[i] ?? 0) }),
			el('td', { text: labels[requests.label[i] ?? 0] ?? '' }),
			el('td', { text: tokens(requests.context[i] ?? 0) }),
			el('td', { text: tokens(requests.cacheRead[i] ?? 0) }),
			el('td', { text: tokens(requests.cacheWrite[i] ?? 0) }),
			el('td', { text: tokens(requests.output[i] ?? 0) }),
			el('td', { text: usd(requests.cost[i] ?? 0) }),
		]);
		if (i === highlight) {
			row.tabIndex = -1;
		}
		rows.push(row);
	}
	if (end === count) {
		markerRows(Infinity);
	}
	return el('table', { className: 'costs-table requests' }, [
		el('caption', { text: count === 0 ? 'No request recorded' : `Requests ${start + 1}–${end} of ${count}, with what happened between them` }),
		el('thead', {}, [el('tr', {}, COLUMNS.map((name) => el('th', { text: name, attrs: { scope: 'col' } })))]),
		el('tbody', {}, rows),
	]);
}

/** `2026-01-02 13:04:05`, local time. */
function timeText(at: number): string {
	const date = new Date(at);
	const two = (n: number): string => String(n).padStart(2, '0');
	return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

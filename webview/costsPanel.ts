/**
 * The Costs panel: what the session's requests cost, prune by prune. The toolbar's Costs button
 * opens it in place of the messages (the chart needs the page's width); the host works the figures
 * out only while it is open (`showCosts`). The chart and, beside it, the tables of the same data.
 */
import type { CostsView } from '../src/shared/protocol';
import { CostsChart, SERIES } from './costsChart';
import { prunesTable, requestsTable, REQUESTS_PER_PAGE, summaryList } from './costsTables';
import { el, figure } from './dom';

export class CostsPanel {
	readonly button: HTMLElementTagNameMap['vscode-button'];
	readonly element: HTMLElement;
	private readonly chart = new CostsChart();
	private readonly status = el('p', { className: 'costs-status', attrs: { 'aria-live': 'polite' } });
	private readonly summary = el('div', { className: 'costs-summary-part' });
	private readonly prunes = el('div', { className: 'costs-prunes-part', attrs: { role: 'region', 'aria-label': 'Prunes table', tabindex: '0' } });
	private readonly requests = el('div', { className: 'costs-requests-part', attrs: { role: 'region', 'aria-label': 'Requests table', tabindex: '0' } });
	private readonly earlier = el('vscode-button', { text: 'Earlier requests', attrs: { secondary: '', icon: 'chevron-left' }, data: { control: 'costs-earlier' } });
	private readonly later = el('vscode-button', { text: 'Later requests', attrs: { secondary: '', icon: 'chevron-right' }, data: { control: 'costs-later' } });
	private view: CostsView | undefined;
	private page = 0;
	private highlight: number | undefined;
	private opened = false;
	private sessionPath: string | undefined;

	constructor(private readonly onToggle: (open: boolean) => void, private readonly onShown: () => void) {
		this.button = el('vscode-button', { text: 'Costs', attrs: { secondary: '', icon: 'graph', 'aria-pressed': 'false' }, data: { control: 'costs' }, title: 'What each request cost and what each prune cost and saved' });
		this.button.addEventListener('click', () => this.setOpen(!this.opened, true));
		this.earlier.addEventListener('click', () => this.showPage(this.page - 1));
		this.later.addEventListener('click', () => this.showPage(this.page + 1));
		this.element = el('section', { className: 'costs', attrs: { 'aria-label': 'Costs' } }, [
			el('h2', { text: 'Costs' }),
			this.status,
			el('div', { className: 'costs-body' }, [
				el('div', { className: 'costs-chart-column' }, [this.chart.element, legend(), this.summary]),
				el('div', { className: 'costs-table-column' }, [
					this.prunes,
					el('div', { className: 'costs-pager', attrs: { role: 'group', 'aria-label': 'Requests table pages' } }, [this.earlier, this.later]),
					this.requests,
				]),
			]),
		]);
		this.element.hidden = true;
		this.status.textContent = 'Working out what this session cost…';
	}

	get open(): boolean {
		return this.opened;
	}

	/** Opens or closes the panel; `tell` says so to the host (not when restoring what the host knows). */
	setOpen(open: boolean, tell: boolean): void {
		this.opened = open;
		this.element.hidden = !open;
		// The panel takes the messages' place: the chart needs the page's width.
		this.element.parentElement?.classList.toggle('costs-open', open);
		this.button.setAttribute('aria-pressed', String(open));
		this.button.toggleAttribute('secondary', !open);
		if (open) {
			this.chart.show(this.view);
		}
		if (tell) {
			this.onToggle(open);
		}
	}

	/** The host's figures for the session shown (undefined: none to show). */
	show(view: CostsView | undefined, sessionPath: string): void {
		const sameSession = this.sessionPath === sessionPath;
		this.sessionPath = sessionPath;
		this.view = view;
		if (!view) {
			this.status.textContent = 'No costs to show: no session, or nothing recorded yet.';
			this.summary.replaceChildren();
			this.prunes.replaceChildren();
			this.requests.replaceChildren();
			this.chart.show(undefined);
			this.onShown();
			return;
		}
		const count = view.requests.at.length;
		this.status.replaceChildren(
			figure('costs.requests', String(count), count),
			document.createTextNode(` request${count === 1 ? '' : 's'}`),
			document.createTextNode(view.prunes === undefined ? ' · working out each prune…' : ` · ${view.prunes.length} prune${view.prunes.length === 1 ? '' : 's'} accounted`),
			figure('costs.prunes', '', view.prunes?.length ?? -1, 'hidden-figure'),
		);
		this.summary.replaceChildren(summaryList(view));
		this.prunes.replaceChildren(prunesTable(view, (request) => this.goTo(request)));
		if (!sameSession) {
			this.highlight = undefined;
		}
		this.showPage(sameSession ? this.page : lastPage(count));
		if (this.opened) {
			this.chart.show(view);
		}
		this.onShown();
	}

	private goTo(request: number): void {
		this.highlight = request;
		this.showPage(Math.floor(request / REQUESTS_PER_PAGE));
		this.requests.querySelector<HTMLElement>('tr.highlight')?.focus();
	}

	private showPage(page: number): void {
		const view = this.view;
		const count = view?.requests.at.length ?? 0;
		this.page = Math.max(0, Math.min(page, lastPage(count)));
		this.earlier.toggleAttribute('disabled', this.page === 0);
		this.later.toggleAttribute('disabled', this.page >= lastPage(count));
		this.requests.replaceChildren(...(view ? [requestsTable(view, this.page, this.highlight)] : []));
	}
}

function lastPage(count: number): number {
	return Math.max(0, Math.ceil(count / REQUESTS_PER_PAGE) - 1);
}

/** The chart's series and markers, named (the chart's own legend is off: this one is text). */
function legend(): HTMLElement {
	return el('ul', { className: 'costs-legend', attrs: { 'aria-label': 'Chart legend' } }, [
		...SERIES.map((series) => el('li', {}, [el('span', { className: `swatch swatch-${series.colour}`, attrs: { 'aria-hidden': 'true' } }), document.createTextNode(series.label)])),
		el('li', {}, [el('span', { className: 'swatch swatch-prune', attrs: { 'aria-hidden': 'true' } }), document.createTextNode('Prune Pn (green: paid back or free, red: not paid back)')]),
		el('li', {}, [el('span', { className: 'swatch swatch-event', attrs: { 'aria-hidden': 'true' } }), document.createTextNode('Compaction, model change, branch switch, resume; dotted: idle gap')]),
	]);
}

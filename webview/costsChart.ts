/**
 * The Costs panel's timeline chart, drawn by uPlot (a canvas: no markup, no inline style attribute,
 * no eval, so it runs under the page's strict policy). One point per request: context, cache read,
 * cache write and output tokens on the left axis; the request's cost and pruning's running balance
 * in dollars on the right. The markers are vertical lines between two requests: each prune in the
 * colour of its outcome with its number, compactions, model changes, branch switches, resumes and
 * idle gaps. Colours are the theme's chart colours, read again when the theme changes. The chart is
 * one image to a screen reader (its label says what it shows): the table beside it holds the data.
 */
import uPlot from 'uplot';
import type { CostsView } from '../src/shared/protocol';
import { tokens, usd } from './format';

const HEIGHT = 280;

interface Palette {
	readonly foreground: string;
	readonly lines: string;
	readonly context: string;
	readonly cacheRead: string;
	readonly cacheWrite: string;
	readonly output: string;
	readonly cost: string;
	readonly balance: string;
	readonly paidBack: string;
	readonly notPaidBack: string;
	readonly marker: string;
}

/** The theme's chart colours (VS Code sets them on the page's root), with readable fallbacks. */
function palette(): Palette {
	const style = getComputedStyle(document.documentElement);
	const read = (name: string, fallback: string): string => style.getPropertyValue(name).trim() || fallback;
	const foreground = read('--vscode-charts-foreground', read('--vscode-foreground', '#cccccc'));
	return {
		foreground,
		lines: read('--vscode-charts-lines', '#80808059'),
		context: read('--vscode-charts-blue', '#3794ff'),
		cacheRead: read('--vscode-charts-green', '#89d185'),
		cacheWrite: read('--vscode-charts-orange', '#d18616'),
		output: read('--vscode-charts-purple', '#b180d7'),
		cost: read('--vscode-charts-yellow', '#cca700'),
		balance: read('--vscode-charts-red', '#f14c4c'),
		paidBack: read('--vscode-charts-green', '#89d185'),
		notPaidBack: read('--vscode-charts-red', '#f14c4c'),
		marker: foreground,
	};
}

/** Series names, in the chart's order (after x), with the palette key of each. */
export const SERIES: readonly { readonly label: string; readonly colour: keyof Palette; readonly scale: 'tokens' | 'usd' }[] = [
	{ label: 'Context tokens', colour: 'context', scale: 'tokens' },
	{ label: 'Cache read', colour: 'cacheRead', scale: 'tokens' },
	{ label: 'Cache write', colour: 'cacheWrite', scale: 'tokens' },
	{ label: 'Output', colour: 'output', scale: 'tokens' },
	{ label: 'Cost ($)', colour: 'cost', scale: 'usd' },
	{ label: 'Pruning balance ($)', colour: 'balance', scale: 'usd' },
];

export class CostsChart {
	readonly element: HTMLElement;
	private plot: uPlot | undefined;
	private view: CostsView | undefined;
	private readonly resize = new ResizeObserver(() => this.fit());
	private readonly theme = new MutationObserver(() => this.draw());

	constructor() {
		this.element = document.createElement('div');
		this.element.className = 'costs-chart';
		this.element.setAttribute('role', 'img');
		this.resize.observe(this.element);
		// VS Code marks the theme on the body's class (vscode-light, vscode-dark, vscode-high-contrast…).
		this.theme.observe(document.body, { attributes: true, attributeFilter: ['class'] });
	}

	show(view: CostsView | undefined): void {
		this.view = view;
		this.draw();
	}

	private draw(): void {
		this.plot?.destroy();
		this.plot = undefined;
		const view = this.view;
		const count = view?.requests.at.length ?? 0;
		this.element.setAttribute('aria-label', view && count > 0 ? chartLabel(view) : 'No requests recorded in this session.');
		if (!view || count === 0 || this.element.clientWidth === 0) {
			return;
		}
		const colours = palette();
		const x = Array.from({ length: count }, (_, i) => i + 1);
		const { context, cacheRead, cacheWrite, output, cost } = view.requests;
		const balance = view.balance ?? [];
		const data: uPlot.AlignedData = [x, context.slice(), cacheRead.slice(), cacheWrite.slice(), output.slice(), cost.slice(), view.balance ? balance.slice() : x.map(() => null)];
		const axis = { stroke: colours.foreground, grid: { stroke: colours.lines, width: 1 }, ticks: { stroke: colours.lines, width: 1 } };
		this.plot = new uPlot({
			width: this.element.clientWidth,
			height: HEIGHT,
			legend: { show: false },
			cursor: { drag: { x: true, y: false } },
			// Both from 0 (the balance may go below it); a session that recorded no cost still gets a readable axis.
			scales: { x: { time: false }, tokens: { range: (_u, _min, max) => [0, Math.max(max, 1)] }, usd: { range: (_u, min, max) => [Math.min(0, min), Math.max(max, 0.01)] } },
			axes: [
				{ ...axis, label: 'Request' },
				{ ...axis, scale: 'tokens', label: 'Tokens', size: 60, values: (_u, values) => values.map((value) => tokens(Math.round(value))) },
				{ ...axis, scale: 'usd', side: 1, label: 'USD', size: 70, grid: { show: false }, values: (_u, values) => values.map((value) => usd(value)) },
			],
			series: [
				{ label: 'Request' },
				...SERIES.map((series, i) => ({
					label: series.label,
					scale: series.scale,
					stroke: colours[series.colour],
					width: i === 0 ? 2 : 1,
					...(i === SERIES.length - 1 ? { dash: [6, 4] } : {}),
					points: { show: false },
				})),
			],
			hooks: { draw: [(plot: uPlot) => drawMarkers(plot, view, colours)] },
		}, data, this.element);
	}

	private fit(): void {
		if (!this.plot) {
			this.draw();
			return;
		}
		if (this.element.clientWidth > 0 && this.element.clientWidth !== this.plot.width) {
			this.plot.setSize({ width: this.element.clientWidth, height: HEIGHT });
		}
	}
}

/** The markers as lines between requests `beforeRequest` and `beforeRequest + 1` (1-based x). */
function drawMarkers(plot: uPlot, view: CostsView, colours: Palette): void {
	const { ctx, bbox } = plot;
	let pruneNumber = 0;
	ctx.save();
	ctx.font = `${Math.round(11 * devicePixelRatio)}px sans-serif`;
	for (const marker of view.markers) {
		const left = plot.valToPos(marker.beforeRequest + 0.5, 'x', true);
		if (left < bbox.left || left > bbox.left + bbox.width) {
			if (marker.kind === 'prune') {
				pruneNumber++;
			}
			continue;
		}
		ctx.beginPath();
		if (marker.kind === 'prune') {
			pruneNumber++;
			const account = view.prunes?.[pruneNumber - 1];
			ctx.strokeStyle = !account ? colours.marker : account.outcome === 'not-paid-back' ? colours.notPaidBack : account.outcome === 'paid-back' || account.outcome === 'free' ? colours.paidBack : colours.marker;
			ctx.lineWidth = 2 * devicePixelRatio;
			ctx.setLineDash([]);
			ctx.fillStyle = ctx.strokeStyle;
			ctx.fillText(`P${pruneNumber}`, left + 3 * devicePixelRatio, bbox.top + 12 * devicePixelRatio);
		} else {
			ctx.strokeStyle = colours.marker;
			ctx.lineWidth = devicePixelRatio;
			ctx.setLineDash(marker.kind === 'idle-gap' ? [2 * devicePixelRatio, 3 * devicePixelRatio] : [6 * devicePixelRatio, 4 * devicePixelRatio]);
		}
		ctx.moveTo(left, bbox.top);
		ctx.lineTo(left, bbox.top + bbox.height);
		ctx.stroke();
	}
	ctx.restore();
}

/** What a screen reader hears of the chart: what it plots and where to find the figures. */
function chartLabel(view: CostsView): string {
	const prunes = view.markers.filter((marker) => marker.kind === 'prune').length;
	return `Chart of ${view.requests.at.length} requests: context, cache read, cache write and output tokens, and each request's cost`
		+ `${prunes > 0 ? `, with ${prunes} prune${prunes === 1 ? '' : 's'} marked` : ''}. The same figures are in the tables.`;
}

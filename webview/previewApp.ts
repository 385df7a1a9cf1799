/**
 * The preview page: receives the host's snapshots, shows one view of the context in the
 * virtualized list with the side panels, and turns user actions into protocol messages. Keeps its
 * state with `setState` so a reload or restart restores the view, what-if, search and scroll.
 */
import type { PageSnapshot, PageState, PreviewRow, RenderReport, ToWebview, ViewName, WhatIfOverrides } from '../src/shared/protocol';
import { bannerText, buildLayout, statusFigure, type AppLayout } from './appLayout';
import { warningRows } from './warningRows';
import { barsPanel } from './barsPanel';
import { cachePanel } from './cachePanel';
import { Expansions } from './expansions';
import type { HostChannel } from './hostChannel';
import { RefHover } from './refHover';
import { postReport } from './renderReport';
import { rowElement } from './rowElement';
import { RowList, type ScrollAnchor } from './rowList';
import { SearchController } from './searchController';
import { WhatIfPanel } from './whatIfPanel';

const SCROLL_REPORT_MS = 300;
const FLASH_MS = 1500;

export class PreviewApp {
	private readonly layout: AppLayout;
	private readonly list: RowList;
	private readonly whatIf: WhatIfPanel;
	private readonly search: SearchController;
	private readonly expansions: Expansions;
	private snapshot: PageSnapshot | undefined;
	/** The view shown: always the view of `snapshot.rows`. */
	private view: ViewName = 'after';
	/** Where to scroll once the rows of a requested view arrive. */
	private pendingIndex: number | undefined;
	private overrides: WhatIfOverrides = {};
	private refs: ReadonlySet<string> = new Set();
	/** Recoveries waiting for the host's answer: its text, or why there is none. */
	private readonly recovering = new Map<number, { resolve: (text: string) => void; reject: (reason: Error) => void }>();
	private restored: PageState | undefined;
	private scrollTimer: number | undefined;
	private flashIndex: number | undefined;
	/** The host asked for render reports (test runs only). */
	private reportRenders = false;

	constructor(app: HTMLElement, private readonly host: HostChannel) {
		this.layout = buildLayout(app);
		this.expansions = new Expansions(host);
		this.list = new RowList(this.layout.scroller, this.layout.inner, (row, index) => rowElement(row, index, {
			view: this.view,
			refs: this.refs,
			expanded: this.expansions.forView(this.view),
			rawMarkdown: this.expansions.rawMarkdown,
			query: this.search.query,
			hitRows: this.search.state.hitRows,
			currentHitRow: this.search.state.current()?.row ?? this.flashIndex,
		}), () => this.afterScrollRender());
		this.search = new SearchController(this.layout, {
			search: (requestId, view, query) => host.post({ type: 'search', requestId, view, query }),
			nextRequestId: () => host.nextRequestId(),
			view: () => this.view,
			rows: () => this.rows(),
			isExpanded: (key) => this.expansions.has(this.view, key),
			expand: (index, key) => this.expansions.request(this.view, index, key),
			scrollToIndex: (index) => this.list.scrollToIndex(index),
			refreshRows: () => this.list.refresh(),
			elementAt: (index) => this.list.elementAt(index),
			topIndex: () => this.list.topIndex(),
			report: (cause, since) => this.report(cause, since),
			saveState: () => this.saveState(),
		});
		this.whatIf = new WhatIfPanel({
			onChange: (overrides) => {
				this.overrides = overrides;
				this.saveState();
				host.post({ type: 'setWhatIf', overrides });
			},
			onApply: (overrides) => host.post({ type: 'applyWhatIf', overrides }),
		});
		this.layout.whatIf.appendChild(this.whatIf.element);
		new RefHover(this.layout.scroller, {
			recover: (ref) => new Promise((resolve, reject) => {
				const requestId = host.nextRequestId();
				this.recovering.set(requestId, { resolve, reject });
				host.post({ type: 'recover', requestId, ref });
			}),
			open: (ref) => host.post({ type: 'openRef', ref }),
			info: (ref) => this.snapshot?.refs.find((info) => info.ref === ref),
		});
		this.layout.sentButton.addEventListener('click', () => this.setView('after'));
		this.layout.rawButton.addEventListener('click', () => this.setView('before'));
		this.layout.inner.addEventListener('click', (event) => this.rowAction(event));
	}

	start(): void {
		this.host.listen((message) => this.receive(message));
		this.restored = this.host.savedState();
		if (this.restored) {
			this.view = this.restored.view;
			this.overrides = this.restored.overrides;
			this.search.restore(this.restored.query);
		}
		this.host.post({ type: 'ready', state: this.restored });
	}

	private receive(message: ToWebview): void {
		const receivedAt = performance.now();
		switch (message.type) {
			case 'snapshot':
				return this.showSnapshot(message.snapshot, message.cause, receivedAt);
			case 'empty':
				return this.showEmpty(message.message, receivedAt);
			case 'rowDetail':
				this.expansions.set(message.view, message.key, message.blocks);
				if (message.view === this.view) {
					this.list.refresh();
					this.search.markCurrent();
					this.report('expand', receivedAt);
				}
				this.saveState();
				return;
			case 'recovered':
				this.recovering.get(message.requestId)?.resolve(message.text);
				this.recovering.delete(message.requestId);
				return;
			case 'recoveryFailed':
				this.recovering.get(message.requestId)?.reject(new Error(message.reason));
				this.recovering.delete(message.requestId);
				return;
			case 'searchResults':
				return this.search.onResults(message, receivedAt);
			case 'reveal':
				return this.reveal(message.view, message.index, receivedAt);
			case 'applied':
				return this.whatIf.showStatus(message.message);
			case 'reportRenders':
				this.reportRenders = true;
				return;
			default: {
				const _exhaustive: never = message;
				return _exhaustive;
			}
		}
	}

	private showSnapshot(snapshot: PageSnapshot, cause: 'open' | 'session' | 'whatIf' | 'view', receivedAt: number): void {
		const previous = this.snapshot;
		const sameSession = previous?.sessionPath === snapshot.sessionPath;
		const sameView = sameSession && previous.view === snapshot.view;
		const restoring = !previous && this.restored?.sessionPath === snapshot.sessionPath ? this.restored : undefined;
		let anchor: ScrollAnchor | 'end' | undefined = sameView ? this.list.anchor() : restoring?.anchor;
		let expanded = this.expansions.reset();
		if (!sameSession) {
			this.search.clear();
			expanded = restoring?.expanded.slice() ?? [];
			if (!restoring) {
				this.overrides = {};
				anchor = undefined;
			}
		} else if (!sameView) {
			this.search.clear();
		}
		this.snapshot = snapshot;
		this.view = snapshot.view;
		this.refs = new Set(snapshot.refs.map((info) => info.ref));
		this.layout.empty.hidden = true;
		this.layout.scroller.hidden = false;
		this.layout.title.textContent = snapshot.title;
		this.layout.title.title = snapshot.sessionPath;
		this.layout.status.replaceChildren(statusFigure(snapshot.statusText));
		this.layout.release.textContent = snapshot.releaseLine;
		this.layout.release.title = snapshot.releaseLine;
		this.layout.release.classList.toggle('missing', !snapshot.piCondenseInstalled);
		this.layout.bars.replaceChildren(barsPanel(snapshot));
		this.layout.cache.replaceChildren(cachePanel(snapshot, (index) => this.setView('after', index)));
		this.whatIf.update(snapshot);
		this.whatIf.element.hidden = false;
		this.showBanner();
		this.layout.warnings.replaceChildren(...warningRows(snapshot));
		this.showViewButtons();
		this.list.setRows(snapshot.rows, anchor);
		if (this.pendingIndex !== undefined && cause === 'view') {
			this.list.scrollToIndex(this.pendingIndex);
		}
		this.pendingIndex = undefined;
		this.expansions.reexpand(expanded, snapshot);
		if (this.search.query !== '') {
			this.search.run();
		}
		this.saveState();
		this.report(cause === 'view' ? 'view' : cause === 'open' && restoring ? 'restore' : 'snapshot', receivedAt);
	}

	private showEmpty(text: string, receivedAt: number): void {
		this.snapshot = undefined;
		this.layout.empty.textContent = text;
		this.layout.empty.hidden = false;
		this.layout.scroller.hidden = true;
		this.list.setRows([], undefined);
		for (const part of [this.layout.bars, this.layout.cache, this.layout.status, this.layout.warnings]) {
			part.replaceChildren();
		}
		this.whatIf.element.hidden = true;
		this.layout.banner.hidden = true;
		this.report('snapshot', receivedAt);
	}

	/** Asks the host for another view's rows (they travel only while shown); `index` is scrolled to on arrival. */
	private setView(view: ViewName, index?: number): void {
		if (!this.snapshot) {
			return;
		}
		if (view === this.view) {
			if (index !== undefined) {
				this.reveal(view, index, performance.now());
			}
			return;
		}
		this.pendingIndex = index;
		this.layout.sentButton.toggleAttribute('secondary', view !== 'after');
		this.layout.rawButton.toggleAttribute('secondary', view !== 'before');
		this.host.post({ type: 'showView', view });
	}

	private reveal(view: ViewName, index: number, receivedAt: number): void {
		if (view !== this.view) {
			return this.setView(view, index);
		}
		this.flashIndex = index;
		this.list.scrollToIndex(index);
		this.list.refresh();
		window.setTimeout(() => {
			this.flashIndex = undefined;
			this.list.elementAt(index)?.classList.remove('current-hit');
		}, FLASH_MS);
		this.report('reveal', receivedAt);
	}

	private rowAction(event: MouseEvent): void {
		const button = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-action]') : null;
		const index = Number(button?.closest<HTMLElement>('.row')?.dataset.index);
		const row = this.rows()[index];
		if (!button || !row) {
			return;
		}
		switch (button.dataset.action) {
			case 'expand':
				return this.expansions.request(this.view, index, row.key);
			case 'collapse':
				this.expansions.collapse(this.view, row.key);
				this.list.refresh();
				this.saveState();
				return this.report('expand', performance.now());
			case 'raw':
				this.expansions.toggleRaw(row.key);
				return this.list.refresh();
			case 'counterpart':
				return row.counterpart === undefined ? undefined : this.setView(this.view === 'after' ? 'before' : 'after', row.counterpart);
			case 'open-ref':
				return button.dataset.ref ? this.host.post({ type: 'openRef', ref: button.dataset.ref }) : undefined;
			default:
				return undefined;
		}
	}

	private rows(): readonly PreviewRow[] {
		return this.snapshot?.rows ?? [];
	}

	private showViewButtons(): void {
		this.layout.sentButton.toggleAttribute('secondary', this.view !== 'after');
		this.layout.rawButton.toggleAttribute('secondary', this.view !== 'before');
	}

	private showBanner(): void {
		const text = bannerText(this.snapshot);
		this.layout.banner.hidden = text === '';
		this.layout.banner.textContent = text;
	}

	private afterScrollRender(): void {
		window.clearTimeout(this.scrollTimer);
		this.scrollTimer = window.setTimeout(() => {
			this.saveState();
			this.report('scroll', performance.now());
		}, SCROLL_REPORT_MS);
	}

	private saveState(): void {
		const anchor = this.list.anchor();
		this.host.saveState({
			sessionPath: this.snapshot?.sessionPath,
			view: this.view,
			overrides: this.overrides,
			anchor: anchor === 'end' ? undefined : anchor,
			query: this.search.query,
			expanded: this.expansions.keys(),
		});
	}

	private report(cause: RenderReport['cause'], since: number): void {
		// The constant first: a production build drops this block, and with it postReport.
		if (PI_CONDENSE_RENDER_REPORTS && this.reportRenders) {
			postReport(this.host, since, () => ({
				cause,
				sessionPath: this.snapshot?.sessionPath ?? '',
				view: this.view,
				rowCount: this.rows().length,
				renderedRows: this.list.renderedIndexes(),
				topKey: this.list.topKey(),
				expanded: this.expansions.keys(),
				searchHits: this.search.state.hits.length,
				whatIfChanges: this.snapshot?.whatIf.changes.length ?? 0,
			}));
		}
	}
}

/**
 * The preview page: receives the host's snapshots, shows one view of the context in the
 * virtualized list with the side panels, and turns user actions into protocol messages. Rows come
 * on demand: a snapshot brings a first window, the list asks for the rows it scrolls to. Keeps its
 * state with `setState` so a reload or restart restores the view, what-if, search and scroll.
 */
import type { PageSnapshot, PageState, RenderReport, ToWebview, ViewName, WhatIfOverrides } from '../src/shared/protocol';
import { CostsPanel } from './costsPanel';
import { buildLayout, showFigures, showLoading, showNoSession, showViewButtons, type AppLayout } from './appLayout';
import { Expansions } from './expansions';
import { showLastSent } from './lastSentPanel';
import type { HostChannel } from './hostChannel';
import { Recoveries } from './recoveries';
import { wirePageControls } from './pageControls';
import { postReport } from './renderReport';
import { rowElement } from './rowElement';
import { RowFocus } from './rowFocus';
import { RowList } from './rowList';
import { RowRequests } from './rowRequests';
import { RowStore } from './rowStore';
import { SearchController } from './searchController';
import { WhatIfPanel } from './whatIfPanel';

const SCROLL_REPORT_MS = 300;
const FLASH_MS = 1500;

export class PreviewApp {
	private readonly layout: AppLayout;
	private readonly list: RowList;
	private readonly focus: RowFocus;
	private readonly whatIf: WhatIfPanel;
	private readonly search: SearchController;
	private readonly expansions: Expansions;
	/** The rows held of the view shown, and the requests for the others. */
	private readonly store = new RowStore();
	private readonly requests: RowRequests;
	private snapshot: PageSnapshot | undefined;
	/** The view shown: always the view of the rows held. */
	private view: ViewName = 'after';
	/** Where to scroll once the rows of a requested view arrive. */
	private pendingIndex: number | undefined;
	private overrides: WhatIfOverrides = {};
	private readonly recoveries: Recoveries;
	private readonly costs: CostsPanel;
	private restored: PageState | undefined;
	private scrollTimer: number | undefined;
	private flashIndex: number | undefined;
	/** The host asked for render reports (test runs only). */
	private reportRenders = false;

	constructor(app: HTMLElement, private readonly host: HostChannel) {
		this.layout = buildLayout(app);
		this.expansions = new Expansions(host);
		this.requests = new RowRequests(this.store, (message) => host.post(message), () => host.nextRequestId());
		this.focus = new RowFocus(this.layout.scroller, () => this.list, () => this.store.count);
		this.list = new RowList(this.layout.scroller, this.layout.inner, this.store, (row, index) => this.focus.decorated(rowElement(row, index, {
			view: this.view,
			refs: this.store.refNames,
			expanded: this.expansions.forView(this.view),
			rawMarkdown: this.expansions.rawMarkdown,
			query: this.search.query,
			hitRows: this.search.state.hitRows,
			currentHitRow: this.search.state.current()?.row ?? this.flashIndex,
		}), index), (first, last) => this.afterRender(first, last));
		this.search = new SearchController(this.layout, {
			search: (requestId, view, query) => host.post({ type: 'search', requestId, view, query }),
			nextRequestId: () => host.nextRequestId(),
			view: () => this.view,
			row: (index) => this.store.row(index),
			whenHeld: (index, then) => this.requests.whenHeld(index, then),
			isExpanded: (key) => this.expansions.has(this.view, key),
			expand: (key) => this.expansions.request(this.view, key),
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
		// Its fields have nothing to show until the first snapshot (the skeleton stands for the side column).
		this.whatIf.element.hidden = true;
		this.recoveries = new Recoveries(host);
		this.costs = new CostsPanel((shown) => {
			host.post({ type: 'showCosts', shown });
			this.saveState();
		}, () => this.report('costs', performance.now()));
		this.layout.toolbar.appendChild(this.costs.button);
		app.insertBefore(this.costs.element, this.layout.content);
		wirePageControls(this.layout, host, {
			store: this.store,
			recoveries: this.recoveries,
			setView: (view, index) => this.setView(view, index),
			view: () => this.view,
			expansions: this.expansions,
			refresh: () => this.list.refresh(),
			collapsed: () => {
				this.saveState();
				this.report('expand', performance.now());
			},
			showCounterpart: (index) => this.setView(this.view === 'after' ? 'before' : 'after', index),
		});
	}

	start(): void {
		this.host.listen((message) => this.receive(message));
		this.restored = this.host.savedState();
		if (this.restored) {
			this.view = this.restored.view;
			this.overrides = this.restored.overrides;
			this.search.restore(this.restored.query);
			this.costs.setOpen(this.restored.costs === true, false);
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
			case 'loading':
				return showLoading(this.layout, message.title);
			case 'rows':
				// Rows the list asked for: they replace their placeholders; what waited for them goes on.
				if (this.requests.answered(message.requestId, message.window)) {
					this.list.rowsArrived();
				}
				return this.requests.next();
			case 'rowDetail':
				this.expansions.set(message.view, message.key, message.blocks);
				if (message.view === this.view) {
					this.store.addRefs(message.refs);
					this.list.refresh();
					this.search.markCurrent();
					this.report('expand', receivedAt);
				}
				this.saveState();
				return;
			case 'recovered':
			case 'recoveryFailed':
				return this.recoveries.answered(message);
			case 'searchResults':
				return this.search.onResults(message, receivedAt);
			case 'reveal':
				if (this.store.put(message.window)) {
					this.list.rowsArrived();
				}
				return this.reveal(message.view, message.index, receivedAt);
			case 'applied':
				return this.whatIf.showStatus(message.message);
			case 'reportRenders':
				this.reportRenders = true;
				return;
			case 'costs':
				return this.costs.show(message.costs, message.sessionPath);
			case 'lastSent': return showLastSent(this.layout.lastSent, message.lastSent, this.host, () => this.report('lastSent', receivedAt));
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
		const kept = sameView ? this.list.position() : undefined;
		let expanded = this.expansions.reset();
		if (!sameSession) {
			expanded = restoring?.expanded.slice() ?? [];
			if (!restoring) {
				this.overrides = {};
			}
		}
		if (!sameView) {
			this.search.clear();
			this.requests.forgetTop();
			this.focus.reset(0);
		}
		this.snapshot = snapshot;
		this.view = snapshot.view;
		this.store.reset(snapshot);
		this.requests.reset();
		showFigures(this.layout, snapshot, (index) => this.setView('after', index));
		this.whatIf.update(snapshot);
		this.whatIf.element.hidden = false;
		showViewButtons(this.layout, this.view);
		// The row at the top stays there (found by key: a live update may have moved it), a restored one comes back.
		this.list.setRows(kept === 'end' ? kept : this.store.locate(sameView ? kept : restoring?.anchor));
		if (this.pendingIndex !== undefined && cause === 'view') {
			this.list.scrollToIndex(this.pendingIndex);
		}
		this.pendingIndex = undefined;
		this.expansions.reexpand(expanded, snapshot.view);
		if (this.search.query !== '') {
			this.search.run();
		}
		this.saveState();
		this.report(cause === 'view' ? 'view' : cause === 'open' && restoring ? 'restore' : 'snapshot', receivedAt);
	}

	private showEmpty(text: string, receivedAt: number): void {
		this.snapshot = undefined;
		this.store.clear();
		this.requests.reset();
		showNoSession(this.layout, text);
		this.costs.show(undefined, '');
		this.list.setRows(undefined);
		this.whatIf.element.hidden = true;
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
		showViewButtons(this.layout, view);
		this.host.post(index === undefined ? { type: 'showView', view } : { type: 'showView', view, index });
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
		// Reported once the row is there: the host sends it with the reveal, the list asks for it otherwise.
		this.requests.whenHeld(index, () => this.report('reveal', receivedAt));
	}

	/** After each render: asks for the rows on screen that are not held; once scrolling settles, saves and reports. */
	private afterRender(first: number, last: number): void {
		this.focus.afterRender();
		if (last >= first) {
			this.requests.want(first, last);
		}
		window.clearTimeout(this.scrollTimer);
		this.scrollTimer = window.setTimeout(() => {
			this.saveState();
			this.requests.tellTop(this.snapshot ? this.list.topKey() : undefined);
			this.report('scroll', performance.now());
		}, SCROLL_REPORT_MS);
	}

	private saveState(): void {
		const position = this.list.position();
		this.host.saveState({
			sessionPath: this.snapshot?.sessionPath,
			view: this.view,
			overrides: this.overrides,
			anchor: position === 'end' || position?.key === undefined ? undefined : { key: position.key, offset: position.offset },
			query: this.search.query,
			expanded: this.expansions.keys(),
			costs: this.costs.open,
		});
	}

	private report(cause: RenderReport['cause'], since: number): void {
		// The constant first: a production build drops this block, and with it postReport.
		if (PI_CONDENSE_RENDER_REPORTS && this.reportRenders) {
			postReport(this.host, since, () => ({
				cause,
				sessionPath: this.snapshot?.sessionPath ?? '',
				view: this.view,
				rowCount: this.store.count,
				renderedRows: this.list.renderedIndexes(),
				topKey: this.list.topKey(),
				expanded: this.expansions.keys(),
				searchHits: this.search.state.hits.length,
				whatIfChanges: this.snapshot?.whatIf.changes.length ?? 0,
			}));
		}
	}
}

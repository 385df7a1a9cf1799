/**
 * The preview page: receives the host's snapshots, shows one view of the context in the
 * virtualized list with the side panels, and turns user actions into protocol messages. Keeps its
 * state with `setState` so a reload or restart restores the view, what-if, search and scroll.
 */
import type { PageState, PreviewBlock, PreviewSnapshot, RenderReport, ToWebview, ViewName, WhatIfOverrides } from '../src/shared/protocol';
import { buildLayout, statusFigure, type AppLayout } from './appLayout';
import { barsPanel } from './barsPanel';
import { cachePanel } from './cachePanel';
import type { HostChannel } from './hostChannel';
import { RefHover } from './refHover';
import { countNodes, readFigures } from './renderReport';
import { rowElement } from './rowElement';
import { RowList, type ScrollAnchor } from './rowList';
import { SearchState } from './searchState';
import { WhatIfPanel } from './whatIfPanel';

const SEARCH_DEBOUNCE_MS = 250;
const SCROLL_REPORT_MS = 300;

export class PreviewApp {
	private readonly layout: AppLayout;
	private readonly list: RowList;
	private readonly whatIf: WhatIfPanel;
	private readonly search = new SearchState();
	private snapshot: PreviewSnapshot | undefined;
	private view: ViewName = 'after';
	private overrides: WhatIfOverrides = {};
	private refs: ReadonlySet<string> = new Set();
	/** Full blocks of expanded rows, keyed `view:key`. */
	private readonly expanded = new Map<string, readonly PreviewBlock[]>();
	private readonly rawMarkdown = new Set<string>();
	private readonly pending = new Map<number, (text: string) => void>();
	private restored: PageState | undefined;
	private searchTimer: number | undefined;
	private scrollTimer: number | undefined;
	private flashIndex: number | undefined;

	constructor(app: HTMLElement, private readonly host: HostChannel) {
		this.layout = buildLayout(app);
		this.list = new RowList(this.layout.scroller, this.layout.inner, (row, index) => rowElement(row, index, {
			view: this.view,
			refs: this.refs,
			expanded: this.expandedFor(this.view),
			rawMarkdown: this.rawMarkdown,
			query: this.search.query,
			hitRows: this.search.hitRows,
			currentHitRow: this.search.current()?.row ?? this.flashIndex,
		}), () => this.afterScrollRender());
		this.whatIf = new WhatIfPanel({
			onChange: (overrides) => {
				this.overrides = overrides;
				this.saveState();
				this.host.post({ type: 'setWhatIf', overrides });
			},
			onApply: (overrides) => this.host.post({ type: 'applyWhatIf', overrides }),
		});
		this.layout.whatIf.appendChild(this.whatIf.element);
		new RefHover(this.layout.scroller, {
			recover: (ref) => this.request((requestId) => this.host.post({ type: 'recover', requestId, ref })),
			open: (ref) => this.host.post({ type: 'openRef', ref }),
			info: (ref) => this.snapshot?.refs.find((info) => info.ref === ref),
		});
		this.wireControls();
	}

	start(): void {
		this.host.listen((message) => this.receive(message));
		this.restored = this.host.savedState();
		if (this.restored) {
			this.view = this.restored.view;
			this.overrides = this.restored.overrides;
			this.search.query = this.restored.query;
			this.layout.searchField.value = this.restored.query;
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
				this.pending.get(message.requestId)?.('');
				this.pending.delete(message.requestId);
				this.expanded.set(`${message.view}:${message.key}`, message.blocks);
				if (message.view === this.view) {
					this.list.refresh();
					this.markCurrentHit();
					this.report('expand', receivedAt);
				}
				this.saveState();
				return;
			case 'recovered':
				this.pending.get(message.requestId)?.(message.text);
				this.pending.delete(message.requestId);
				return;
			case 'searchResults':
				if (message.requestId === this.search.requestId && message.view === this.view) {
					this.search.setResults(message.hits, message.capped, this.topIndex());
					this.goToHit(receivedAt);
				}
				return;
			case 'reveal':
				return this.reveal(message.view, message.index, receivedAt);
			case 'applied':
				this.whatIf.showStatus(message.message);
				return;
			default: {
				const _exhaustive: never = message;
				return _exhaustive;
			}
		}
	}

	private showSnapshot(snapshot: PreviewSnapshot, cause: 'open' | 'session' | 'whatIf', receivedAt: number): void {
		const previous = this.snapshot;
		const sameSession = previous?.sessionPath === snapshot.sessionPath;
		const restoring = !previous && this.restored?.sessionPath === snapshot.sessionPath ? this.restored : undefined;
		let anchor: ScrollAnchor | 'end' | undefined = sameSession ? this.list.anchor() : restoring?.anchor;
		if (!sameSession) {
			this.expanded.clear();
			this.rawMarkdown.clear();
			this.search.clear();
			if (!restoring) {
				this.view = 'after';
				this.overrides = {};
				anchor = undefined;
			}
		}
		const expandedKeys = restoring ? restoring.expanded : [...this.expanded.keys()];
		this.expanded.clear();
		this.snapshot = snapshot;
		this.refs = new Set(snapshot.refs.map((info) => info.ref));
		this.layout.empty.hidden = true;
		this.layout.scroller.hidden = false;
		this.layout.title.textContent = snapshot.title;
		this.layout.title.title = snapshot.sessionPath;
		this.layout.status.replaceChildren(statusFigure(snapshot.statusText));
		this.layout.bars.replaceChildren(barsPanel(snapshot));
		this.layout.cache.replaceChildren(cachePanel(snapshot, (index) => this.reveal('after', index, performance.now())));
		this.whatIf.update(snapshot);
		this.showBanner();
		this.showViewButtons();
		this.list.setRows(snapshot[this.view], anchor);
		this.reexpand(expandedKeys);
		if (this.search.query !== '') {
			this.runSearch();
		}
		this.saveState();
		this.report(cause === 'open' ? (restoring ? 'restore' : 'snapshot') : 'snapshot', receivedAt);
	}

	private showEmpty(text: string, receivedAt: number): void {
		this.snapshot = undefined;
		this.layout.empty.textContent = text;
		this.layout.empty.hidden = false;
		this.layout.scroller.hidden = true;
		this.list.setRows([], undefined);
		for (const part of [this.layout.bars, this.layout.cache, this.layout.status]) {
			part.replaceChildren();
		}
		this.report('snapshot', receivedAt);
	}

	private setView(view: ViewName, anchor?: number): void {
		if (!this.snapshot || view === this.view) {
			return;
		}
		this.view = view;
		this.search.clear();
		this.showViewButtons();
		this.list.setRows(this.snapshot[view], undefined);
		if (anchor !== undefined) {
			this.list.scrollToIndex(anchor);
		}
		if (this.search.query !== '') {
			this.runSearch();
		}
		this.saveState();
		this.report('view', performance.now());
	}

	private reveal(view: ViewName, index: number, receivedAt: number): void {
		if (view !== this.view) {
			this.setView(view);
		}
		this.flashIndex = index;
		this.list.scrollToIndex(index);
		this.list.refresh();
		window.setTimeout(() => {
			this.flashIndex = undefined;
			this.list.elementAt(index)?.classList.remove('current-hit');
		}, 1500);
		this.report('reveal', receivedAt);
	}

	private wireControls(): void {
		this.layout.sentButton.addEventListener('click', () => this.setView('after'));
		this.layout.rawButton.addEventListener('click', () => this.setView('before'));
		this.layout.searchField.addEventListener('input', () => {
			window.clearTimeout(this.searchTimer);
			this.searchTimer = window.setTimeout(() => this.runSearch(), SEARCH_DEBOUNCE_MS);
		});
		this.layout.searchField.addEventListener('keydown', (event: KeyboardEvent) => {
			if (event.key === 'Enter') {
				event.preventDefault();
				this.stepHit(event.shiftKey ? -1 : 1);
			}
		});
		this.layout.previousHit.addEventListener('click', () => this.stepHit(-1));
		this.layout.nextHit.addEventListener('click', () => this.stepHit(1));
		this.layout.inner.addEventListener('click', (event) => this.rowAction(event));
	}

	private rowAction(event: MouseEvent): void {
		const button = event.target instanceof Element ? event.target.closest<HTMLElement>('[data-action]') : null;
		const rowNode = button?.closest<HTMLElement>('.row');
		const index = Number(rowNode?.dataset.index);
		const row = this.snapshot?.[this.view][index];
		if (!button || !row) {
			return;
		}
		const action = button.dataset.action;
		if (action === 'expand') {
			this.requestExpand(index, row.key);
		} else if (action === 'collapse') {
			this.expanded.delete(`${this.view}:${row.key}`);
			this.list.refresh();
			this.saveState();
			this.report('expand', performance.now());
		} else if (action === 'raw') {
			if (!this.rawMarkdown.delete(row.key)) {
				this.rawMarkdown.add(row.key);
			}
			this.list.refresh();
		} else if (action === 'counterpart' && row.counterpart !== undefined) {
			this.setView(this.view === 'after' ? 'before' : 'after', row.counterpart);
		} else if (action === 'open-ref' && button.dataset.ref) {
			this.host.post({ type: 'openRef', ref: button.dataset.ref });
		}
	}

	private requestExpand(index: number, key: string): void {
		const view = this.view;
		this.host.post({ type: 'expandRow', requestId: this.host.nextRequestId(), view, index, key });
	}

	private reexpand(viewKeys: readonly string[]): void {
		const snapshot = this.snapshot;
		for (const viewKey of viewKeys.slice(0, 20)) {
			const [view, key] = viewKey.split(/:(.*)/s) as [ViewName, string];
			const index = snapshot?.[view]?.findIndex((row) => row.key === key) ?? -1;
			if (index >= 0) {
				this.host.post({ type: 'expandRow', requestId: this.host.nextRequestId(), view, index, key });
			}
		}
	}

	private runSearch(): void {
		this.search.query = this.layout.searchField.value;
		this.search.requestId = this.host.nextRequestId();
		this.saveState();
		if (this.search.query === '') {
			this.search.clear();
			this.updateHitCount();
			this.list.refresh();
			this.report('search', performance.now());
			return;
		}
		this.host.post({ type: 'search', requestId: this.search.requestId, view: this.view, query: this.search.query });
	}

	private stepHit(direction: 1 | -1): void {
		if (this.search.query !== this.layout.searchField.value) {
			this.runSearch();
			return;
		}
		if (this.search.step(direction)) {
			this.goToHit(performance.now());
		}
	}

	/** Scrolls to the current match, expanding its row first when the match lies past the part shown. */
	private goToHit(receivedAt: number): void {
		this.updateHitCount();
		const hit = this.search.current();
		const row = hit && this.snapshot?.[this.view][hit.row];
		if (hit && row && !this.expanded.has(`${this.view}:${row.key}`)) {
			const block = row.blocks[hit.block];
			const shown = block && block.kind !== 'image' ? block.text.text.length : -1;
			if (hit.block >= row.blocks.length || hit.start + this.search.query.length > shown) {
				this.list.scrollToIndex(hit.row);
				this.requestExpand(hit.row, row.key);
				return;
			}
		}
		if (hit) {
			this.list.scrollToIndex(hit.row);
		}
		this.list.refresh();
		this.markCurrentHit();
		this.report('search', receivedAt);
	}

	private markCurrentHit(): void {
		const hit = this.search.current();
		const node = hit ? this.list.elementAt(hit.row) : undefined;
		const marks = node ? [...node.querySelectorAll<HTMLElement>('.row-body mark.hit, .stub-origin mark.hit')] : [];
		const mark = marks[Math.min(this.search.indexInRow(), marks.length - 1)];
		if (mark) {
			mark.classList.add('current');
			mark.closest('details')?.setAttribute('open', '');
			mark.scrollIntoView({ block: 'nearest' });
		}
	}

	private updateHitCount(): void {
		this.layout.hitCount.textContent = this.search.countText();
	}

	private request(send: (requestId: number) => void): Promise<string> {
		const requestId = this.host.nextRequestId();
		return new Promise((resolve) => {
			this.pending.set(requestId, resolve);
			send(requestId);
		});
	}

	private expandedFor(view: ViewName): Map<string, readonly PreviewBlock[]> {
		const out = new Map<string, readonly PreviewBlock[]>();
		for (const [viewKey, blocks] of this.expanded) {
			if (viewKey.startsWith(`${view}:`)) {
				out.set(viewKey.slice(view.length + 1), blocks);
			}
		}
		return out;
	}

	private topIndex(): number {
		const anchor = this.list.anchor();
		const rows = this.snapshot?.[this.view] ?? [];
		return anchor === 'end' ? rows.length - 1 : anchor ? rows.findIndex((row) => row.key === anchor.key) : 0;
	}

	private topKey(): string | undefined {
		const anchor = this.list.anchor();
		const rows = this.snapshot?.[this.view] ?? [];
		return anchor === 'end' ? rows.at(-1)?.key : anchor?.key;
	}

	private showViewButtons(): void {
		this.layout.sentButton.toggleAttribute('secondary', this.view !== 'after');
		this.layout.rawButton.toggleAttribute('secondary', this.view !== 'before');
	}

	private showBanner(): void {
		const changes = this.snapshot?.whatIf.changes ?? [];
		this.layout.banner.hidden = changes.length === 0;
		this.layout.banner.textContent = changes.length === 0 ? '' : 'What-if: the figures and rows show changed settings that are not written to Pi\'s settings yet.';
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
			expanded: [...this.expanded.keys()],
		});
	}

	/** Posts what was rendered once the frame with it has been produced. */
	private report(cause: RenderReport['cause'], since: number): void {
		requestAnimationFrame(() => window.setTimeout(() => {
			const snapshot = this.snapshot;
			this.host.post({
				type: 'rendered',
				report: {
					cause,
					sessionPath: snapshot?.sessionPath ?? '',
					view: this.view,
					rowCount: snapshot?.[this.view].length ?? 0,
					renderedRows: this.list.renderedIndexes(),
					topKey: this.topKey(),
					domNodes: countNodes(document.documentElement),
					renderMs: performance.now() - since,
					...readFigures(),
					expanded: [...this.expanded.keys()],
					searchHits: this.search.hits.length,
					highlights: document.querySelectorAll('mark.hit').length,
					whatIfChanges: snapshot?.whatIf.changes.length ?? 0,
				},
			});
		}, 0));
	}
}

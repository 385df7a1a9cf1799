/**
 * The search box: asks the host for every match in the full texts of the current view, steps
 * through them (Enter, Shift+Enter, the arrow buttons), scrolls to each, expands a row whose match
 * lies past the part it shows, and marks the current match.
 */
import type { PreviewRow, RenderReport, ToWebview, ViewName } from '../src/shared/protocol';
import type { AppLayout } from './appLayout';
import { SearchState } from './searchState';

const DEBOUNCE_MS = 250;

export interface SearchDeps {
	readonly search: (requestId: number, view: ViewName, query: string) => void;
	readonly nextRequestId: () => number;
	readonly view: () => ViewName;
	readonly row: (index: number) => PreviewRow | undefined;
	/** Runs `then` once the row at `index` is held (the page asks for the rows it scrolls to). */
	readonly whenHeld: (index: number, then: () => void) => void;
	readonly isExpanded: (key: string) => boolean;
	readonly expand: (key: string) => void;
	readonly scrollToIndex: (index: number) => void;
	readonly refreshRows: () => void;
	readonly elementAt: (index: number) => HTMLElement | undefined;
	readonly topIndex: () => number;
	readonly report: (cause: RenderReport['cause'], since: number) => void;
	readonly saveState: () => void;
}

export class SearchController {
	readonly state = new SearchState();
	private timer: number | undefined;

	constructor(private readonly layout: AppLayout, private readonly deps: SearchDeps) {
		layout.searchField.addEventListener('input', () => {
			window.clearTimeout(this.timer);
			this.timer = window.setTimeout(() => this.run(), DEBOUNCE_MS);
		});
		layout.searchField.addEventListener('keydown', (event: KeyboardEvent) => {
			if (event.key === 'Enter') {
				event.preventDefault();
				this.step(event.shiftKey ? -1 : 1);
			}
		});
		layout.previousHit.addEventListener('click', () => this.step(-1));
		layout.nextHit.addEventListener('click', () => this.step(1));
	}

	get query(): string {
		return this.state.query;
	}

	/** Restores a saved query (results follow with the first snapshot). */
	restore(query: string): void {
		this.state.query = query;
		this.layout.searchField.value = query;
	}

	/** Searches again for the field's text in the current view. */
	run(): void {
		const state = this.state;
		state.query = this.layout.searchField.value;
		state.requestId = this.deps.nextRequestId();
		this.deps.saveState();
		if (state.query === '') {
			state.clear();
			this.updateCount();
			this.deps.refreshRows();
			this.deps.report('search', performance.now());
			return;
		}
		this.deps.search(state.requestId, this.deps.view(), state.query);
	}

	/** Forgets the matches (the view or the session changed). */
	clear(): void {
		this.state.clear();
		this.updateCount();
	}

	onResults(message: Extract<ToWebview, { type: 'searchResults' }>, receivedAt: number): void {
		if (message.requestId === this.state.requestId && message.view === this.deps.view()) {
			this.state.setResults(message.hits, message.capped, this.deps.topIndex());
			this.goToHit(receivedAt);
		}
	}

	/** Marks the current match once its row is rendered (after an expansion, for instance). */
	markCurrent(): void {
		const hit = this.state.current();
		const node = hit ? this.deps.elementAt(hit.row) : undefined;
		const marks = node ? [...node.querySelectorAll<HTMLElement>('.row-body mark.hit, .stub-origin mark.hit')] : [];
		const mark = marks[Math.min(this.state.indexInRow(), marks.length - 1)];
		if (mark) {
			mark.classList.add('current');
			mark.closest('details')?.setAttribute('open', '');
			mark.scrollIntoView({ block: 'nearest' });
		}
	}

	private step(direction: 1 | -1): void {
		if (this.state.query !== this.layout.searchField.value) {
			this.run();
			return;
		}
		if (this.state.step(direction)) {
			this.goToHit(performance.now());
		}
	}

	/**
	 * Scrolls to the current match, expanding its row first when the match lies past the part
	 * shown. A row the page does not hold yet is scrolled to first, and the match shown once it came.
	 */
	private goToHit(receivedAt: number): void {
		this.updateCount();
		const hit = this.state.current();
		const row = hit && this.deps.row(hit.row);
		if (hit && !row) {
			this.deps.scrollToIndex(hit.row);
			this.deps.whenHeld(hit.row, () => {
				if (this.state.current() === hit) {
					this.goToHit(receivedAt);
				}
			});
			return;
		}
		if (hit && row && !this.deps.isExpanded(row.key)) {
			const block = row.blocks[hit.block];
			const shown = block && block.kind !== 'image' ? block.text.text.length : -1;
			if (hit.block >= row.blocks.length || hit.start + this.state.query.length > shown) {
				this.deps.scrollToIndex(hit.row);
				this.deps.expand(row.key);
				return;
			}
		}
		if (hit) {
			this.deps.scrollToIndex(hit.row);
		}
		this.deps.refreshRows();
		this.markCurrent();
		this.deps.report('search', receivedAt);
	}

	private updateCount(): void {
		this.layout.hitCount.textContent = this.state.countText();
	}
}

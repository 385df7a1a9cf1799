/**
 * The page skeleton: title and status, the toolbar (view switch, search), the virtualized list and
 * the side column (token bars, cache impact, what-if).
 */
import type { PageSnapshot, ViewName } from '../src/shared/protocol';
import { barsPanel } from './barsPanel';
import { cachePanel } from './cachePanel';
import { el, figure, icon } from './dom';
import { warningRows } from './warningRows';

export interface AppLayout {
	readonly title: HTMLElement;
	readonly status: HTMLElement;
	/** Which pi-condense release the rows are rendered as, and where Pi loads it from. */
	readonly release: HTMLElement;
	readonly banner: HTMLElement;
	/** Chains left for `compact` (a killed flush left them raw), with the Compact button. */
	readonly compactable: HTMLElement;
	readonly compactText: HTMLElement;
	readonly compactButton: HTMLElementTagNameMap['vscode-button'];
	/** Defects of the user's release that change what is sent. */
	readonly warnings: HTMLElement;
	readonly sentButton: HTMLElementTagNameMap['vscode-button'];
	readonly rawButton: HTMLElementTagNameMap['vscode-button'];
	readonly searchField: HTMLElementTagNameMap['vscode-textfield'];
	readonly previousHit: HTMLElementTagNameMap['vscode-button'];
	readonly nextHit: HTMLElementTagNameMap['vscode-button'];
	readonly hitCount: HTMLElement;
	readonly scroller: HTMLElement;
	readonly inner: HTMLElement;
	readonly empty: HTMLElement;
	readonly bars: HTMLElement;
	readonly cache: HTMLElement;
	readonly whatIf: HTMLElement;
	/** What the Pi holding the session last sent (live sessions only; hidden otherwise). */
	readonly lastSent: HTMLElement;
}

export function buildLayout(app: HTMLElement): AppLayout {
	const layout: AppLayout = {
		title: el('h1', { className: 'title', text: 'Context preview' }),
		status: el('span', { className: 'status' }),
		release: el('span', { className: 'release', data: { figure: 'release' } }),
		banner: el('div', { className: 'banner', attrs: { role: 'status' } }),
		compactable: el('div', { className: 'compactable', attrs: { role: 'status' } }),
		compactText: el('span', { data: { figure: 'compactable' } }),
		compactButton: el('vscode-button', { text: 'Compact', attrs: { secondary: '', icon: 'fold' }, data: { control: 'compact' }, title: 'Compact Closed Chains Now: compress these chains in the session file (/pruner compact)' }),
		warnings: el('div', { className: 'warnings', attrs: { role: 'alert' } }),
		sentButton: el('vscode-button', { text: 'Sent to the model', data: { control: 'view-after' }, title: 'The context as pi-condense renders it for the next LLM call' }),
		rawButton: el('vscode-button', { text: 'Before pruning', attrs: { secondary: '' }, data: { control: 'view-before' }, title: 'Pi\'s own context, before pi-condense\'s transform' }),
		searchField: el('vscode-textfield', { attrs: { placeholder: 'Search the whole context', 'aria-label': 'Search the context' }, data: { control: 'search' } }),
		previousHit: el('vscode-button', { attrs: { icon: 'arrow-up', secondary: '', title: 'Previous match (Shift+Enter)', 'aria-label': 'Previous match' }, data: { control: 'search-previous' } }),
		nextHit: el('vscode-button', { attrs: { icon: 'arrow-down', secondary: '', title: 'Next match (Enter)', 'aria-label': 'Next match' }, data: { control: 'search-next' } }),
		hitCount: el('span', { className: 'hit-count', attrs: { 'aria-live': 'polite' } }),
		scroller: el('div', { className: 'list-scroller', attrs: { role: 'list', 'aria-label': 'Messages', tabindex: '0' } }),
		inner: el('div', { className: 'list-inner' }),
		empty: el('div', { className: 'empty' }),
		bars: el('div', { className: 'side-part' }),
		cache: el('div', { className: 'side-part' }),
		whatIf: el('div', { className: 'side-part' }),
		lastSent: el('div', { className: 'side-part' }),
	};
	layout.lastSent.hidden = true;
	layout.scroller.appendChild(layout.inner);
	layout.banner.hidden = true;
	layout.compactable.append(icon('fold'), layout.compactText, layout.compactButton);
	layout.compactable.hidden = true;
	layout.empty.hidden = true;
	app.replaceChildren(
		el('header', { className: 'top' }, [
			el('div', { className: 'title-line' }, [icon('eye'), layout.title, layout.status]),
			el('div', { className: 'release-line' }, [icon('package'), layout.release]),
			el('div', { className: 'toolbar' }, [
				el('div', { className: 'segmented', attrs: { role: 'group', 'aria-label': 'Which context' } }, [layout.sentButton, layout.rawButton]),
				el('div', { className: 'search' }, [layout.searchField, layout.previousHit, layout.nextHit, layout.hitCount]),
			]),
			layout.banner,
			layout.compactable,
			layout.warnings,
		]),
		el('main', { className: 'content' }, [
			el('div', { className: 'list-column' }, [layout.empty, layout.scroller]),
			el('aside', { className: 'side' }, [layout.lastSent, layout.bars, layout.cache, layout.whatIf]),
		]),
	);
	app.removeAttribute('aria-busy');
	return layout;
}

export function statusFigure(text: string): HTMLElement {
	return figure('status', text);
}

/** The line above the rows when what they show is not simply pruning as configured ('' for none). */
export function bannerText(snapshot: PageSnapshot | undefined): string {
	return !snapshot ? ''
		: !snapshot.piCondenseInstalled ? 'Pi has no pi-condense: the model is sent Pi\'s own context, nothing is pruned, and entries written now would only add summaries. '
			+ 'Run "Pi Condense: Install pi-condense in Pi…" (or pi install npm:pi-condense), then restart Pi.'
			: !snapshot.enabled ? 'Pruning is off in Pi\'s settings (contextPrune.enabled): the model is sent Pi\'s own context.'
				: snapshot.whatIf.changes.length > 0 ? 'What-if: the figures and rows show changed settings that are not written to Pi\'s settings yet.' : '';
}

/** Shows a snapshot's header, banner, warnings and side panels (everything but the rows and the what-if). */
export function showFigures(layout: AppLayout, snapshot: PageSnapshot, showRow: (index: number) => void): void {
	layout.empty.hidden = true;
	layout.scroller.hidden = false;
	layout.title.textContent = snapshot.title;
	layout.title.title = snapshot.sessionPath;
	layout.status.replaceChildren(statusFigure(snapshot.statusText));
	layout.release.textContent = snapshot.releaseLine;
	layout.release.title = snapshot.releaseLine;
	layout.release.classList.toggle('missing', !snapshot.piCondenseInstalled);
	layout.bars.replaceChildren(barsPanel(snapshot));
	layout.cache.replaceChildren(cachePanel(snapshot, showRow));
	const banner = bannerText(snapshot);
	layout.banner.hidden = banner === '';
	layout.banner.textContent = banner;
	// pi-condense compresses chains only at the end of a flush that summarized something.
	layout.compactable.hidden = snapshot.compactable === '';
	layout.compactText.textContent = snapshot.compactable === '' ? '' : `${snapshot.compactable}: pi-condense compresses chains only at the end of a flush that summarizes a batch.`;
	layout.warnings.replaceChildren(...warningRows(snapshot));
}

/** Marks the button of the view shown. */
export function showViewButtons(layout: AppLayout, view: ViewName): void {
	layout.sentButton.toggleAttribute('secondary', view !== 'after');
	layout.rawButton.toggleAttribute('secondary', view !== 'before');
}

/** No session: says why, in place of the rows and figures. */
export function showNoSession(layout: AppLayout, text: string): void {
	layout.empty.textContent = text;
	layout.empty.hidden = false;
	layout.scroller.hidden = true;
	for (const part of [layout.bars, layout.cache, layout.status, layout.warnings]) {
		part.replaceChildren();
	}
	layout.banner.hidden = true;
	layout.compactable.hidden = true;
}

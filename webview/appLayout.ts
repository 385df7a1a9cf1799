/**
 * The page's layout: title and status, the toolbar (view switch, search), the pending work with its
 * buttons, the virtualized list and the side column (token bars, cache impact, what-if). Until the
 * first snapshot the grey skeleton the HTML came with stays in place of the list (`aria-busy`).
 */
import type { PageSnapshot, ViewName } from '../src/shared/protocol';
import { actionsBar, type ActionsBar } from './actionsBar';
import { barsPanel } from './barsPanel';
import { cachePanel } from './cachePanel';
import { el, figure, icon } from './dom';
import { editNoteRows } from './editNotes';
import { warningRows } from './warningRows';
import { named } from './whatIfPanel';

export interface AppLayout {
	readonly title: HTMLElement;
	readonly status: HTMLElement;
	/** Which pi-condense release the rows are rendered as, and where Pi loads it from. */
	readonly release: HTMLElement;
	readonly banner: HTMLElement;
	/** What is pending, what summarizing it would reclaim, the chains left for `compact`, and the two buttons. */
	readonly actions: ActionsBar;
	/** Defects of the user's release that change what is sent. */
	readonly warnings: HTMLElement;
	/** Pi 1.x: what context edits left out. */
	readonly edits: HTMLElement;
	readonly sentButton: HTMLElementTagNameMap['vscode-button'];
	readonly rawButton: HTMLElementTagNameMap['vscode-button'];
	readonly searchField: HTMLElementTagNameMap['vscode-textfield'];
	readonly previousHit: HTMLElementTagNameMap['vscode-button'];
	readonly nextHit: HTMLElementTagNameMap['vscode-button'];
	readonly hitCount: HTMLElement;
	readonly scroller: HTMLElement;
	readonly inner: HTMLElement;
	readonly empty: HTMLElement;
	/** Grey rows in place of the list until the first snapshot. */
	readonly skeleton: HTMLElement;
	readonly bars: HTMLElement;
	readonly cache: HTMLElement;
	readonly whatIf: HTMLElement;
	/** What the Pi holding the session last sent (live sessions only; hidden otherwise). */
	readonly lastSent: HTMLElement;
	readonly toolbar: HTMLElement;
	/** The messages and the side column (the Costs panel takes their place when open). */
	readonly content: HTMLElement;
}

export function buildLayout(app: HTMLElement): AppLayout {
	const layout: AppLayout = {
		title: el('h1', { className: 'title', text: 'Context preview' }),
		status: el('span', { className: 'status' }),
		release: el('span', { className: 'release', data: { figure: 'release' } }),
		banner: el('div', { className: 'banner', attrs: { role: 'status' } }),
		actions: actionsBar(),
		warnings: el('div', { className: 'warnings', attrs: { role: 'alert' } }),
		edits: el('div', { className: 'edits', attrs: { role: 'note', 'aria-label': 'Context edits' } }),
		sentButton: el('vscode-button', { text: 'Sent to the model', data: { control: 'view-after' }, title: 'The context as pi-condense renders it for the next LLM call' }),
		rawButton: el('vscode-button', { text: 'Before pruning', attrs: { secondary: '' }, data: { control: 'view-before' }, title: 'Pi\'s own context, before pi-condense\'s transform' }),
		searchField: named(el('vscode-textfield', { attrs: { placeholder: 'Search the whole context' }, data: { control: 'search' } }), 'Search the context'),
		previousHit: el('vscode-button', { attrs: { icon: 'arrow-up', secondary: '', title: 'Previous match (Shift+Enter)', 'aria-label': 'Previous match' }, data: { control: 'search-previous' } }),
		nextHit: el('vscode-button', { attrs: { icon: 'arrow-down', secondary: '', title: 'Next match (Enter)', 'aria-label': 'Next match' }, data: { control: 'search-next' } }),
		hitCount: el('span', { className: 'hit-count', attrs: { 'aria-live': 'polite' } }),
		scroller: el('div', { className: 'list-scroller', attrs: { role: 'list', 'aria-label': 'Messages', 'aria-describedby': 'list-keys', tabindex: '0' } }),
		inner: el('div', { className: 'list-inner' }),
		empty: el('div', { className: 'empty' }),
		skeleton: el('div', { className: 'skeleton-rows', attrs: { 'aria-hidden': 'true' } }, Array.from({ length: 6 }, () => el('div', { className: 'skeleton-row' }, [
			el('div', { className: 'skeleton-bar short' }), el('div', { className: 'skeleton-bar' }), el('div', { className: 'skeleton-bar wide' }),
		]))),
		bars: el('div', { className: 'side-part' }),
		cache: el('div', { className: 'side-part' }),
		whatIf: el('div', { className: 'side-part' }),
		lastSent: el('div', { className: 'side-part' }),
		toolbar: el('div', { className: 'toolbar' }),
		content: el('main', { className: 'content' }),
	};
	layout.lastSent.hidden = true;
	layout.scroller.appendChild(layout.inner);
	layout.banner.hidden = true;
	layout.actions.element.hidden = true;
	layout.empty.hidden = true;
	// Kept in the layout (its size is what the virtual list measures), unseen until the first snapshot.
	layout.scroller.classList.add('loading');
	layout.status.textContent = 'Loading the context the model is sent…';
	app.replaceChildren(
		el('header', { className: 'top' }, [
			el('div', { className: 'title-line' }, [icon('eye'), layout.title, layout.status]),
			el('div', { className: 'release-line' }, [icon('package'), layout.release]),
			layout.toolbar,
			layout.banner,
			layout.actions.element,
			layout.warnings,
			layout.edits,
		]),
		layout.content,
	);
	layout.toolbar.replaceChildren(
		el('div', { className: 'segmented', attrs: { role: 'group', 'aria-label': 'Which context' } }, [layout.sentButton, layout.rawButton]),
		el('div', { className: 'search' }, [layout.searchField, layout.previousHit, layout.nextHit, layout.hitCount]),
	);
	layout.content.replaceChildren(
		el('div', { className: 'list-column' }, [
			el('p', { className: 'visually-hidden', attrs: { id: 'list-keys' }, text: 'Up and Down move between messages; Home, End, Page Up and Page Down jump; Right moves into a message\'s links and buttons, Left or Escape back to the message.' }),
			layout.empty, layout.skeleton, layout.scroller,
		]),
		el('aside', { className: 'side' }, [layout.lastSent, layout.bars, layout.cache, layout.whatIf]),
	);
	return layout;
}

function statusFigure(text: string): HTMLElement {
	return figure('status', text);
}

/** The line above the rows when what they show is not simply pruning as configured ('' for none). */
function bannerText(snapshot: PageSnapshot | undefined): string {
	return !snapshot ? ''
		: !snapshot.piCondenseInstalled ? 'Pi has no pi-condense: the model is sent Pi\'s own context, nothing is pruned, and entries written now would only add summaries. '
			+ 'Run "Pi Condense: Install pi-condense in Pi…" (or pi install npm:pi-condense), then restart Pi.'
			: !snapshot.enabled ? 'Pruning is off in Pi\'s settings (contextPrune.enabled): the model is sent Pi\'s own context.'
				: snapshot.whatIf.changes.length > 0 ? 'What-if: the figures and rows show changed settings that are not written to Pi\'s settings yet.' : '';
}

/** Shows a snapshot's header, banner, warnings and side panels (everything but the rows and the what-if). */
export function showFigures(layout: AppLayout, snapshot: PageSnapshot, showRow: (index: number) => void): void {
	showLoaded(layout);
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
	layout.actions.element.hidden = false;
	layout.actions.update(snapshot);
	layout.warnings.replaceChildren(...warningRows(snapshot));
	layout.edits.replaceChildren(...editNoteRows(snapshot));
}

/** Marks the button of the view shown. */
export function showViewButtons(layout: AppLayout, view: ViewName): void {
	layout.sentButton.toggleAttribute('secondary', view !== 'after');
	layout.rawButton.toggleAttribute('secondary', view !== 'before');
}

/** No session: says why, in place of the rows and figures. */
export function showNoSession(layout: AppLayout, text: string): void {
	showLoaded(layout);
	layout.title.textContent = 'Context preview';
	layout.title.title = '';
	layout.release.textContent = '';
	layout.empty.textContent = text;
	layout.empty.hidden = false;
	layout.scroller.hidden = true;
	for (const part of [layout.bars, layout.cache, layout.status, layout.warnings, layout.edits]) {
		part.replaceChildren();
	}
	layout.banner.hidden = true;
	layout.actions.element.hidden = true;
}

/** A session is coming: its title over the skeleton (until its snapshot, which the host is computing). */
export function showLoading(layout: AppLayout, title: string): void {
	layout.title.textContent = title;
	layout.status.replaceChildren(document.createTextNode('Computing the context the model is sent…'));
	layout.skeleton.hidden = false;
	layout.scroller.classList.add('loading');
	layout.empty.hidden = true;
	document.getElementById('app')?.setAttribute('aria-busy', 'true');
}

/** The skeleton gives way to what came. */
function showLoaded(layout: AppLayout): void {
	layout.skeleton.hidden = true;
	layout.scroller.classList.remove('loading');
	document.getElementById('app')?.removeAttribute('aria-busy');
}

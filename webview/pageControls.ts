/**
 * What the page's own controls ask for: the Sent/Raw buttons, Compact and Summarize now (typed
 * messages to the host, which runs them as the palette's commands do), the actions in a row (expand,
 * the counterpart, a ref), and the ref hovers with their recovered output.
 */
import type { AppLayout } from './appLayout';
import type { HostChannel } from './hostChannel';
import { RefHover } from './refHover';
import type { Recoveries } from './recoveries';
import { rowAction, type RowActionDeps } from './rowActions';
import type { RowStore } from './rowStore';
import type { ViewName } from '../src/shared/protocol';

export interface PageControlDeps extends Omit<RowActionDeps, 'openRef' | 'row'> {
	readonly store: RowStore;
	readonly recoveries: Recoveries;
	/** Shows a view, at a row of it when given. */
	readonly setView: (view: ViewName, index?: number) => void;
}

export function wirePageControls(layout: AppLayout, host: HostChannel, deps: PageControlDeps): void {
	const openRef = (ref: string): void => host.post({ type: 'openRef', ref });
	new RefHover(layout.scroller, {
		recover: (ref) => deps.recoveries.recover(ref),
		open: openRef,
		info: (ref) => deps.store.refInfo(ref),
	});
	layout.sentButton.addEventListener('click', () => deps.setView('after'));
	layout.rawButton.addEventListener('click', () => deps.setView('before'));
	layout.actions.compactButton.addEventListener('click', () => host.post({ type: 'compact' }));
	layout.actions.summarizeButton.addEventListener('click', () => host.post({ type: 'summarizeNow' }));
	layout.inner.addEventListener('click', (event) => rowAction(event, { ...deps, row: (index) => deps.store.row(index), openRef }));
}

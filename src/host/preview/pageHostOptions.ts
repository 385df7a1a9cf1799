/**
 * What the preview's protocol host needs from its panel (or, in the page tests, from a plain page):
 * what the ref requests need (the session feed, posting, opening, notifying, logging), and how to
 * title the tab, report renders and read the time.
 */
import type { RenderReport } from '../../shared/protocol';
import type { RefOptions } from './refRequests';
import type { WorkScope } from '../../work';

export interface PageHostOptions extends RefOptions {
	/** The page's own scope (one per panel): its computations run under it, and closing it stops them. */
	readonly work: WorkScope;
	readonly setTitle: (title: string) => void;
	/** Asks the page for render reports (test runs only: the walk of the DOM costs every render). */
	readonly reportRenders?: boolean;
	readonly onReport: (report: RenderReport) => void;
	/** Messages of the page that are not part of the protocol, ignored. */
	readonly debug?: (message: string) => void;
	readonly now?: () => number;
}

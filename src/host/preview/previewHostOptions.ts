/**
 * What the preview's protocol host needs from its panel (or, in the page tests, from a plain page):
 * the source of sessions, how to post to the page, open documents, notify, title the tab, log.
 */
import type { RenderReport, ToWebview } from '../../shared/protocol';
import type { PreviewSource } from './previewSource';

export interface PreviewHostOptions {
	readonly source: PreviewSource;
	readonly post: (message: ToWebview) => Promise<unknown>;
	/** Shows the raw outputs of a compressed block `bN` (the recovery text of its tool calls). */
	readonly openBlock: (sessionPath: string, blockId: string, text: string) => Promise<void>;
	readonly notify: (message: string) => void;
	readonly setTitle: (title: string) => void;
	/** Asks the page for render reports (test runs only: the walk of the DOM costs every render). */
	readonly reportRenders?: boolean;
	readonly onReport: (report: RenderReport) => void;
	readonly log: (message: string) => void;
	/** Messages of the page that are not part of the protocol, ignored. */
	readonly debug?: (message: string) => void;
	readonly now?: () => number;
}

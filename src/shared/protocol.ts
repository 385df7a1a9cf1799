/**
 * The typed message protocol between the extension host and the context preview webview.
 * Shared by `src/host` and `webview/`: types only, no vscode, no DOM, no Node.
 *
 * The page sends `ready` once its script runs (with the state it saved, if any); the host posts
 * nothing before that. Only in test runs does the host answer with `reportRenders`, and only then
 * does the page walk its DOM after each render to post a `rendered` report (production bundles do
 * not even contain that code: `npm run package` checks). Requests that expect an answer carry a `requestId` the answer repeats, so a
 * late answer to a superseded request is recognised and dropped.
 */
import type { PreviewSnapshot, ViewName, WhatIfSettings } from '../engine/preview/snapshotTypes';
import type { PreviewBlock, PreviewRow } from '../engine/preview/types';

export type { PreviewSnapshot, ViewName, WhatIfSettings } from '../engine/preview/snapshotTypes';
export type * from '../engine/preview/types';
export type * from '../engine/preview/snapshotTypes';

/** The webview panel's view type (also its `onWebviewPanel:` activation event). */
export const PREVIEW_VIEW_TYPE = 'piCondense.preview';

export type WhatIfOverrides = Partial<WhatIfSettings>;

/**
 * A snapshot as the page gets it: everything but the rows of the view it does not show. The raw
 * view of a long session is most of the data (10,000 raw rows against ~1,300 sent in the
 * benchmark), so it travels only while the page shows it.
 */
export interface PageSnapshot extends Omit<PreviewSnapshot, 'after' | 'before'> {
	/** The view `rows` belong to. */
	readonly view: ViewName;
	readonly rows: readonly PreviewRow[];
	readonly rowCounts: Readonly<Record<ViewName, number>>;
	/** Which pi-condense Pi loads and where it was found, e.g. `pi-condense 2.9.1 (npm, ~/.pi/agent/…)`. */
	readonly releaseLine: string;
	/** False when Pi has no pi-condense: the rows are then Pi's own context. */
	readonly piCondenseInstalled: boolean;
}

/** What the page keeps with `setState` and gets back after a reload or a window restart. */
export interface PageState {
	readonly sessionPath: string | undefined;
	readonly view: ViewName;
	readonly overrides: WhatIfOverrides;
	/** The row at the top of the list and how far it is scrolled past. */
	readonly anchor: { readonly key: string; readonly offset: number } | undefined;
	readonly query: string;
	/** Rows the user expanded to their full content. */
	readonly expanded: readonly string[];
}

export interface SearchHitMessage {
	readonly row: number;
	readonly block: number;
	readonly start: number;
}

/** What the page rendered, reported after each render once the host asked for reports (tests read it). */
export interface RenderReport {
	readonly cause: 'snapshot' | 'view' | 'expand' | 'search' | 'reveal' | 'scroll' | 'restore';
	readonly sessionPath: string;
	readonly view: ViewName;
	readonly rowCount: number;
	/** Indexes of the rows now in the DOM. */
	readonly renderedRows: readonly number[];
	/** Key of the row at the top of the viewport. */
	readonly topKey: string | undefined;
	/** Every node in the document, shadow roots included. */
	readonly domNodes: number;
	/** From the arrival of the data to the next frame, in ms. */
	readonly renderMs: number;
	/** Text of every element marked `data-figure`, by name (what the user reads). */
	readonly figures: Readonly<Record<string, string>>;
	/** The number behind each figure that has one (`data-value`). */
	readonly values: Readonly<Record<string, number>>;
	readonly expanded: readonly string[];
	readonly searchHits: number;
	/** Search matches highlighted in the DOM. */
	readonly highlights: number;
	readonly whatIfChanges: number;
}

/** Messages the host posts to the webview. */
export type ToWebview =
	| { readonly type: 'snapshot'; readonly snapshot: PageSnapshot; readonly cause: 'open' | 'session' | 'whatIf' | 'view' }
	/** No session to show (none selected, or it could not be read). */
	| { readonly type: 'empty'; readonly message: string }
	| { readonly type: 'rowDetail'; readonly requestId: number; readonly view: ViewName; readonly key: string; readonly blocks: readonly PreviewBlock[] }
	| { readonly type: 'recovered'; readonly requestId: number; readonly ref: string; readonly text: string }
	/** The recovery of `ref` failed (for example, the session is no longer selected). */
	| { readonly type: 'recoveryFailed'; readonly requestId: number; readonly ref: string; readonly reason: string }
	| { readonly type: 'searchResults'; readonly requestId: number; readonly view: ViewName; readonly query: string; readonly hits: readonly SearchHitMessage[]; readonly capped: boolean }
	| { readonly type: 'reveal'; readonly view: ViewName; readonly index: number }
	| { readonly type: 'applied'; readonly ok: boolean; readonly message: string }
	/** Test runs only, before the first snapshot: post a `rendered` report after every render. */
	| { readonly type: 'reportRenders' };

/** Messages the webview posts to the host. The host checks each one's shape at run time (src/host/preview/pageMessages.ts). */
export type FromWebview =
	| { readonly type: 'ready'; readonly state: PageState | undefined }
	/** The page switches views: it needs that view's rows. */
	| { readonly type: 'showView'; readonly view: ViewName }
	| { readonly type: 'setWhatIf'; readonly overrides: WhatIfOverrides }
	| { readonly type: 'applyWhatIf'; readonly overrides: WhatIfOverrides }
	| { readonly type: 'expandRow'; readonly requestId: number; readonly view: ViewName; readonly index: number; readonly key: string }
	| { readonly type: 'recover'; readonly requestId: number; readonly ref: string }
	| { readonly type: 'openRef'; readonly ref: string }
	| { readonly type: 'search'; readonly requestId: number; readonly view: ViewName; readonly query: string }
	| { readonly type: 'rendered'; readonly report: RenderReport };

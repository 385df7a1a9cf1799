/**
 * The typed message protocol between the extension host and the context preview webview.
 * Shared by `src/host` and `webview/`: types only, no vscode, no DOM, no Node.
 *
 * The page sends `ready` once its script runs (with the state it saved, if any); the host posts
 * nothing before that. Only in test runs does the host answer with `reportRenders`, and only then
 * does the page walk its DOM after each render to post a `rendered` report (production bundles do
 * not even contain that code: `npm run package` checks). Requests that expect an answer carry a `requestId` the answer repeats, so a
 * late answer to a superseded request is recognised and dropped.
 *
 * Rows travel on demand: a snapshot carries each view's row count and one window of the shown
 * view's rows (around the row the page will show first); the page asks for the ranges it scrolls
 * to (`rows`), naming the snapshot it holds, and the host answers from that computation only.
 */
import type { PageFigures, PreviewBlock, PreviewRow, RefInfo, ViewName, WhatIfSettings } from '../engine/preview';
import type { PageActions, PendingWork } from '../engine/views';
import type { LastSentView } from '../engine/live';
import type { CostsView } from '../engine/costs';

// The engine's types the page reads, named one by one: what crosses to the page is listed here.
export type { PageAction, PageActions, PendingWork } from '../engine/views';
export type {
	BadgeKind, BarCategory, BoundedText, CacheImpact, CallEstimate, ContextEditNote, EditedOrigin, LastCallUsage, PageFigures, PreviewBlock,
	PreviewRow, PreviewWarning, PricePerMillion, RefInfo, RowBadge, RowKind, SessionUsage, StubOrigin, TokenBar, TokenTotals, ViewName,
	WhatIfSettings, WhatIfState,
} from '../engine/preview';
export type { LastSentView } from '../engine/live';
export type { CostsColumns, CostsMarkerView, CostsView, PruneView } from '../engine/costs';

/** The webview panel's view type (also its `onWebviewPanel:` activation event). */
export const PREVIEW_VIEW_TYPE = 'piCondense.preview';

export type WhatIfOverrides = Partial<WhatIfSettings>;

/**
 * Consecutive rows of one view of one snapshot, from `start`, with what the page needs to show
 * them: the refs their texts name (to link and hover them). Bounded in rows and bytes by the host.
 */
export interface RowWindow {
	readonly snapshotId: number;
	readonly view: ViewName;
	readonly start: number;
	readonly rows: readonly PreviewRow[];
	readonly refs: readonly RefInfo[];
}

/**
 * A snapshot as the page gets it: the figures of both views, the row count of each, and a first
 * window of the shown view's rows. On a long session the rows are nearly all the data (66,496 raw
 * rows are 41.6 MB of JSON on a realistic 100 MB session), so the page asks for the rest as it
 * scrolls. The refs of the rows come with their windows.
 */
export interface PageSnapshot extends Omit<PageFigures, 'refs'> {
	/** Names the computation the rows come from: the page asks for rows of this snapshot. */
	readonly snapshotId: number;
	/** The view the page shows. */
	readonly view: ViewName;
	readonly rowCounts: Readonly<Record<ViewName, number>>;
	/** The rows the page shows first (the restored, revealed or kept row is in it when there is one). */
	readonly window: RowWindow;
	/** Which pi-condense Pi loads and where it was found, e.g. `pi-condense 2.9.1 (npm, ~/.pi/agent/…)`. */
	readonly releaseLine: string;
	/** False when Pi has no pi-condense: the rows are then Pi's own context. */
	readonly piCondenseInstalled: boolean;
	/** `2 chains can be compacted` when chains are left for `compact` (nothing pending; a killed flush left them), else ''. */
	readonly compactable: string;
	/** The batches pending, with the estimate of what summarizing them reclaims; undefined when none. */
	readonly pending: PendingWork | undefined;
	/** The page's Summarize now and Compact buttons: enabled, or why not. */
	readonly actions: PageActions;
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
	/** The Costs panel is open. */
	readonly costs?: boolean;
}

export interface SearchHitMessage {
	readonly row: number;
	readonly block: number;
	readonly start: number;
}

/** What the page rendered, reported after each render once the host asked for reports (tests read it). */
export interface RenderReport {
	readonly cause: 'snapshot' | 'view' | 'expand' | 'search' | 'reveal' | 'scroll' | 'restore' | 'lastSent' | 'costs';
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
	/** A session is being computed: its title, shown over the skeleton until the snapshot comes. */
	| { readonly type: 'loading'; readonly title: string }
	/** The rows asked for with `rows` (fewer when the bound is reached: the page asks again for the rest). */
	| { readonly type: 'rows'; readonly requestId: number; readonly window: RowWindow }
	| { readonly type: 'rowDetail'; readonly requestId: number; readonly view: ViewName; readonly key: string; readonly blocks: readonly PreviewBlock[]; readonly refs: readonly RefInfo[] }
	| { readonly type: 'recovered'; readonly requestId: number; readonly ref: string; readonly text: string }
	/** The recovery of `ref` failed (for example, the session is no longer selected). */
	| { readonly type: 'recoveryFailed'; readonly requestId: number; readonly ref: string; readonly reason: string }
	| { readonly type: 'searchResults'; readonly requestId: number; readonly view: ViewName; readonly query: string; readonly hits: readonly SearchHitMessage[]; readonly capped: boolean }
	/** Scroll to row `index` of `view`; `window` holds the rows around it. */
	| { readonly type: 'reveal'; readonly view: ViewName; readonly index: number; readonly window: RowWindow }
	| { readonly type: 'applied'; readonly ok: boolean; readonly message: string }
	/** What the Pi holding the session really sent last, checked against the prediction; undefined when no live Pi holds it. */
	| { readonly type: 'lastSent'; readonly lastSent: LastSentView | undefined }
	/**
	 * The Costs panel's data for the session shown: first its overview (`prunes` undefined while each
	 * prune's account is worked out), then the whole; undefined when the session has none to show.
	 */
	| { readonly type: 'costs'; readonly sessionPath: string; readonly costs: CostsView | undefined }
	/** Test runs only, before the first snapshot: post a `rendered` report after every render. */
	| { readonly type: 'reportRenders' };

/** Messages the webview posts to the host. The host checks each one's shape at run time (src/host/preview/pageMessages.ts). */
export type FromWebview =
	| { readonly type: 'ready'; readonly state: PageState | undefined }
	/** The page switches views: it needs that view's rows (around `index` when it will scroll there). */
	| { readonly type: 'showView'; readonly view: ViewName; readonly index?: number }
	/** Rows `start` to `end` (exclusive) of a view of the snapshot the page holds. */
	| { readonly type: 'rows'; readonly requestId: number; readonly snapshotId: number; readonly view: ViewName; readonly start: number; readonly end: number }
	/** The row at the top of the page's viewport: the next snapshot's window is placed around it. */
	| { readonly type: 'viewport'; readonly view: ViewName; readonly key: string }
	| { readonly type: 'setWhatIf'; readonly overrides: WhatIfOverrides }
	| { readonly type: 'applyWhatIf'; readonly overrides: WhatIfOverrides }
	/** The full blocks of the row with this key (found by key: the page may not hold its neighbours). */
	| { readonly type: 'expandRow'; readonly requestId: number; readonly view: ViewName; readonly key: string }
	| { readonly type: 'recover'; readonly requestId: number; readonly ref: string }
	| { readonly type: 'openRef'; readonly ref: string }
	/** The Compact button: `/pruner compact` on the session shown. */
	| { readonly type: 'compact' }
	/** The Summarize now button: `/pruner now` on the session shown (the host asks first, as the command does). */
	| { readonly type: 'summarizeNow' }
	/** Last sent's button: the exact messages, system prompt and payload of the last request, as a document. */
	| { readonly type: 'openLastSent' }
	| { readonly type: 'compareRequests' }
	| { readonly type: 'search'; readonly requestId: number; readonly view: ViewName; readonly query: string }
	/** The Costs panel was opened or closed: the host works the costs out only while it is open. */
	| { readonly type: 'showCosts'; readonly shown: boolean }
	| { readonly type: 'rendered'; readonly report: RenderReport };

/**
 * The host's side of the preview protocol, apart from VS Code: answers the page's messages
 * (ready, what-if, apply, rows, expand, recover, open, search, render reports), follows the
 * session and reveals rows. The panel wires it to a webview; the webview tests wire it to a plain page.
 */
import { whatIfChanges } from '../../engine/preview';
import type { FromWebview, PageState, RenderReport, ToWebview, ViewName, WhatIfOverrides } from '../../shared/protocol';
import { checkPageMessage } from './pageMessages';
import { PreviewComputer } from './previewComputer';
import type { PreviewSource } from './previewSource';
import { pageSnapshot, type SnapshotRows } from './snapshotRows';

type RefreshCause = 'open' | 'session' | 'whatIf';
import { errorMessage } from '../../shared/errorMessage';

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

export class PreviewHost {
	private readonly computer: PreviewComputer;
	private overrides: WhatIfOverrides = {};
	/** The view the page shows: only its rows are posted. */
	private view: ViewName = 'after';
	/**
	 * The row the page shows at the top, as far as the host knows (restored, revealed, or said by
	 * the page as it scrolls): a new snapshot's window is placed around it. The top of the view
	 * when it names neither a key nor an index.
	 */
	private position: { readonly view: ViewName; readonly key?: string; readonly index?: number } = { view: 'after' };
	private ready = false;
	private pendingReveal: string | undefined;
	/** A refresh queued and not started yet: later refreshes join it instead of queuing their own. */
	private waitingRefresh: { cause: RefreshCause; readonly done: Promise<void> } | undefined;
	/** Serializes the work so a slow recomputation never overwrites a newer one. */
	private queue: Promise<void> = Promise.resolve();

	constructor(private readonly options: PreviewHostOptions) {
		this.computer = new PreviewComputer(options.source, options.now, () => void this.refresh('session'));
	}

	/** Acts on a message of the page; anything that is not one of the protocol's is ignored. */
	handle(value: unknown): Promise<void> {
		const { message, ignored } = checkPageMessage(value);
		if (ignored !== undefined) {
			this.options.debug?.(`preview: ignored a message from the page that is not part of the protocol: ${ignored}`);
		}
		return message ? this.act(message) : Promise.resolve();
	}

	private act(message: FromWebview): Promise<void> {
		// A page that talks is there, even if VS Code kept it alive while it was hidden.
		this.ready ||= message.type !== 'ready';
		switch (message.type) {
			case 'ready':
				return this.onReady(message.state);
			case 'showView':
				return this.enqueue(() => this.showView(message.view, message.index));
			case 'rows':
				return this.sendRows(message);
			case 'viewport':
				// Said of a view the page has left (a late message): the position set by the switch stands.
				if (message.view === this.view) {
					this.position = { view: message.view, key: message.key };
				}
				return Promise.resolve();
			case 'setWhatIf':
				this.overrides = message.overrides;
				return this.refresh('whatIf');
			case 'applyWhatIf':
				return this.enqueue(() => this.apply(message.overrides));
			case 'expandRow':
				return this.enqueue(() => this.expand(message.requestId, message.view, message.key));
			case 'recover':
				return this.recover(message.requestId, message.ref);
			case 'openRef':
				return this.openRef(message.ref);
			case 'search':
				return this.enqueue(async () => {
					const result = this.computer.search(message.view, message.query);
					await this.options.post({ type: 'searchResults', requestId: message.requestId, view: message.view, query: message.query, hits: result.hits, capped: result.capped });
				});
			case 'rendered':
				if (this.options.reportRenders === true) {
					this.options.onReport(message.report);
				}
				return Promise.resolve();
			default: {
				const _exhaustive: never = message;
				return Promise.resolve(_exhaustive);
			}
		}
	}

	/**
	 * The page is gone: VS Code destroys a hidden webview's content (no retainContextWhenHidden) and
	 * loads it again when shown, and the new page says `ready`. Until then nothing is posted and a
	 * reveal waits.
	 */
	pageUnloaded(): void {
		this.ready = false;
	}

	/**
	 * Recomputes and posts the preview (the session or Pi's settings changed). A newer request
	 * supersedes one still waiting its turn: both are answered by one computation, made when it
	 * starts, of the session and what-if current then (on a large session each computation holds
	 * the host for a while, and typing a what-if or a session growing asks for many).
	 */
	refresh(cause: RefreshCause): Promise<void> {
		if (!this.ready) {
			return Promise.resolve();
		}
		const waiting = this.waitingRefresh;
		if (waiting) {
			// A page load's first snapshot says so (the page restores its state on it): keep that cause.
			waiting.cause = waiting.cause === 'open' ? 'open' : cause;
			return waiting.done;
		}
		const request: { cause: RefreshCause; done: Promise<void> } = { cause, done: Promise.resolve() };
		this.waitingRefresh = request;
		request.done = this.enqueue(async () => {
			if (this.waitingRefresh === request) {
				this.waitingRefresh = undefined;
			}
			await this.postSnapshot(request.cause);
		});
		return request.done;
	}

	private async postSnapshot(cause: RefreshCause): Promise<void> {
		const computation = this.computer.compute(this.overrides);
		if (!computation) {
			await this.options.post({ type: 'empty', message: 'No Pi session is selected. Pick one in the Pi Sessions view.' });
			return;
		}
		this.overrides = this.computer.effectiveOverrides(this.overrides);
		this.options.setTitle(`Context: ${computation.snapshot.title}`);
		await this.postCurrent(cause);
	}

	/** Posts the current computation's snapshot, with the rows of the shown view around the page's position. */
	private async postCurrent(cause: RefreshCause | 'view'): Promise<void> {
		const rows = this.computer.rows;
		if (rows) {
			await this.options.post({ type: 'snapshot', snapshot: pageSnapshot(rows, this.view, this.positionIn(rows), this.computer.session?.followed), cause });
		}
	}

	/** The index of the position's row in the shown view of `rows` (0 when the page is elsewhere or the row is gone). */
	private positionIn(rows: SnapshotRows): number {
		const { view, key, index } = this.position;
		if (view !== this.view) {
			return 0;
		}
		return (key === undefined ? index : rows.indexOf(view, key)) ?? 0;
	}

	/**
	 * Answers a request for rows from the computation the page holds; a request for an older one is
	 * dropped (a new snapshot is on its way, and the page asks again from it). Not queued: it costs
	 * a bounded slice, and waiting behind a recomputation would only make it stale.
	 */
	private async sendRows(request: Extract<FromWebview, { type: 'rows' }>): Promise<void> {
		const rows = this.computer.rows;
		if (rows?.id !== request.snapshotId) {
			return;
		}
		await this.options.post({ type: 'rows', requestId: request.requestId, window: rows.range(request.view, request.start, request.end) });
	}

	/** Shows the row of a tool call, ref, block or entry; waits for the page if it is not ready. */
	reveal(target: string): Promise<void> {
		if (!this.ready) {
			this.pendingReveal = target;
			return Promise.resolve();
		}
		return this.enqueue(async () => {
			const location = this.computer.locate(target);
			const rows = this.computer.rows;
			if (location && rows) {
				if (location.view !== this.view) {
					await this.showView(location.view, location.index);
				}
				this.position = location;
				await this.options.post({ type: 'reveal', ...location, window: rows.around(location.view, location.index) });
			} else {
				this.options.notify(`"${target}" is not in the context of this session.`);
			}
		});
	}

	private async onReady(state: PageState | undefined): Promise<void> {
		this.ready = true;
		const current = this.options.source.current();
		// A restored page keeps its what-if only for the session it was made for.
		const restoring = state !== undefined && current !== undefined && state.sessionPath === current.path;
		this.overrides = restoring ? state.overrides : {};
		this.view = restoring ? state.view : 'after';
		this.position = restoring && state.anchor ? { view: state.view, key: state.anchor.key } : { view: this.view };
		if (this.options.reportRenders === true) {
			await this.options.post({ type: 'reportRenders' });
		}
		await this.refresh('open');
		const target = this.pendingReveal;
		this.pendingReveal = undefined;
		if (target !== undefined) {
			await this.reveal(target);
		}
	}

	/** Posts the current snapshot with the rows of another view, from its top or around `index`. */
	private async showView(view: ViewName, index?: number): Promise<void> {
		this.view = view;
		this.position = { view, index: index ?? 0 };
		await this.postCurrent('view');
	}

	private async apply(overrides: WhatIfOverrides): Promise<void> {
		const session = this.computer.session;
		const changes = session ? whatIfChanges(session.config, overrides) : [];
		if (changes.length === 0) {
			await this.options.post({ type: 'applied', ok: true, message: 'Nothing to change: these are the current settings.' });
			return;
		}
		try {
			// Kept until the new settings arrive; then they no longer differ and are dropped.
			this.overrides = overrides;
			await this.options.source.applyPruneSettings(changes);
			await this.options.post({ type: 'applied', ok: true, message: `Written to Pi's settings.json: ${changes.map((c) => `${c.key} = ${JSON.stringify(c.value)}`).join(', ')}.` });
		} catch (error) {
			await this.options.post({ type: 'applied', ok: false, message: `Could not write Pi's settings: ${errorMessage(error)}` });
		}
	}

	private async expand(requestId: number, view: ViewName, key: string): Promise<void> {
		const blocks = this.computer.rowBlocks(view, key);
		const rows = this.computer.rows;
		if (blocks && rows) {
			await this.options.post({ type: 'rowDetail', requestId, view, key, blocks, refs: rows.refsIn(blocks) });
		}
	}

	/** Answers with the text, or with why there is none: the page's tooltip waits for one or the other. */
	private async recover(requestId: number, ref: string): Promise<void> {
		const ids = this.computer.blockCalls(ref) ?? [ref];
		try {
			const text = await this.options.source.recover(ids);
			await this.options.post({ type: 'recovered', requestId, ref, text });
		} catch (error) {
			this.options.log(`preview: recovering ${ref}: ${String(error)}`);
			await this.options.post({ type: 'recoveryFailed', requestId, ref, reason: errorMessage(error) });
		}
	}

	private async openRef(ref: string): Promise<void> {
		const ids = this.computer.blockCalls(ref);
		const session = this.computer.session;
		try {
			if (ids && session) {
				await this.options.openBlock(session.path, ref, await this.options.source.recover(ids));
			} else {
				await this.options.source.openRecovered(ref);
			}
		} catch (error) {
			this.options.notify(`Could not open ${ref}: ${errorMessage(error)}`);
		}
	}

	private enqueue(work: () => Promise<void>): Promise<void> {
		const run = this.queue.then(work).catch((error: unknown) => this.options.log(`preview: ${String(error)}`));
		this.queue = run;
		return run;
	}
}

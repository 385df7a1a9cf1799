/**
 * The host's side of the preview protocol, apart from VS Code: answers the page's messages
 * (ready, what-if, apply, rows, expand, recover, open, search, render reports), follows the
 * session and reveals rows. The answers that need only the computation are refRequests.ts and
 * rowRequests.ts. The panel wires it to a webview; the webview tests wire it to a plain page.
 */
import type { FromWebview, PageState, ViewName, WhatIfOverrides } from '../../shared/protocol';
import { checkPageMessage } from './pageMessages';
import { WhatIfComputer } from './whatIfComputer';
import type { PageHostOptions } from './pageHostOptions';

export type { PageHostOptions } from './pageHostOptions';
import { PageCosts } from './pageCosts';
import { PagePosition } from './pagePosition';
import { answerRecovery, openRef } from './refRequests';
import { answerRowDetail, answerRows, answerSearch } from './rowRequests';
import { pageSnapshotSteps } from './snapshotRows';
import { pageHead } from './pageHead';
import { applyWhatIf } from './whatIfApply';
import { errorMessage } from '../../base/errorMessage';
import { isWorkStopped, type LatestWins, type SerialQueue } from '../../work';

type RefreshCause = 'open' | 'session' | 'whatIf';

export class PageHost {
	private readonly computer: WhatIfComputer;
	private overrides: WhatIfOverrides = {};
	/** The view the page shows: only its rows are posted. */
	private view: ViewName = 'after';
	/** The row at the top of the page: a new snapshot's rows are placed around it. */
	private readonly position = new PagePosition();
	private ready = false;
	/** The session the page was last told is coming (`loading`); a new page load tells it again. */
	private loadingPath: string | undefined;
	private pendingReveal: string | undefined;
	/** Refreshes: a newer one stops one computing (its result would be out of date at once), or follows it. */
	private readonly refreshes: LatestWins;
	/** What the next refresh's snapshot says it answers (the requests it answers, merged). */
	private nextCause: RefreshCause | undefined;
	/** The refresh computing now: what it answers, and the session it computes. */
	private computing: { readonly cause: RefreshCause; readonly path: string | undefined } | undefined;
	/** Serializes the work so a slow recomputation never overwrites a newer one. */
	private readonly queue: SerialQueue;
	/** The Costs panel's data: the overview at once, each prune's account once worked out. */
	private readonly costs: PageCosts;

	constructor(private readonly options: PageHostOptions) {
		const work = options.work;
		this.costs = new PageCosts({ work, source: options.source, post: options.post });
		this.computer = new WhatIfComputer(work, options.source, options.now, () => void this.refresh('session'));
		this.queue = work.serialQueue();
		this.refreshes = work.latestWins((signal) => this.enqueue(() => this.postSnapshot(signal)), (error) => options.log(`preview: ${errorMessage(error)}`));
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
				return answerRows(this.computer, this.options, message);
			case 'viewport':
				// Said of a view the page has left (a late message): the position set by the switch stands.
				if (message.view === this.view) {
					this.position.atKey(message.view, message.key);
				}
				return Promise.resolve();
			case 'setWhatIf':
				this.overrides = message.overrides;
				return this.refresh('whatIf');
			case 'applyWhatIf':
				return this.enqueue(() => applyWhatIf(this.computer.session, message.overrides, this.options.source, this.options.post, (kept) => {
					this.overrides = kept;
				}));
			case 'expandRow':
				return this.enqueue(() => answerRowDetail(this.computer, this.options, message.requestId, message.view, message.key));
			case 'recover':
				return answerRecovery(this.computer, this.options, message.requestId, message.ref);
			case 'openRef':
				return openRef(this.computer, this.options, message.ref);
			case 'compact':
				return this.options.source.compact();
			case 'summarizeNow':
				return this.options.source.summarizeNow();
			case 'showCosts':
				return this.costs.show(message.shown);
			case 'openLastSent':
				return this.options.source.openLastSent?.() ?? Promise.resolve();
			case 'compareRequests':
				return this.options.source.compareRequests?.() ?? Promise.resolve();
			case 'search':
				return this.enqueue(() => answerSearch(this.computer, this.options, message));
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
		this.loadingPath = undefined;
		this.costs.forget();
	}

	/**
	 * Recomputes and posts the preview (the session or Pi's settings changed). Requests made while one
	 * computes are answered by one computation that follows it, of the session and what-if current
	 * then (typing a what-if or a session growing asks for many). The same session grown lets the
	 * running computation finish (a session Pi keeps appending to would otherwise never be shown);
	 * anything else the user asked for stops it, and its callers are answered by the newer one.
	 */
	refresh(cause: RefreshCause): Promise<void> {
		if (!this.ready) {
			return Promise.resolve();
		}
		const computing = this.computing;
		const follow = cause === 'session' && computing !== undefined && computing.path === this.options.source.current()?.path;
		// A page load's first snapshot says so (the page restores its state on it): that cause is kept.
		const open = this.nextCause === 'open' || (!follow && computing?.cause === 'open');
		this.nextCause = open ? 'open' : cause;
		return this.refreshes.request(follow ? 'follow' : 'restart');
	}

	private async postSnapshot(signal: AbortSignal): Promise<void> {
		if (signal.aborted) {
			return; // stopped before its turn: the newer refresh takes the causes
		}
		const cause = this.nextCause ?? 'session';
		this.nextCause = undefined;
		// Another session (or the first one): the page shows its title over the skeleton while it is computed.
		const shown = this.options.source.current();
		if (shown && shown.path !== this.loadingPath) {
			this.loadingPath = shown.path;
			this.options.setTitle(`Context: ${shown.title}`);
			// Not waited for: the computation starts at once (posts keep their order).
			void this.options.post({ type: 'loading', title: shown.title });
		}
		// Stoppable while it computes; once computed, it is posted.
		this.computing = { cause, path: this.options.source.current()?.path };
		let computation;
		try {
			computation = await this.computer.compute(this.overrides, signal);
		} catch (error) {
			if (isWorkStopped(error)) {
				this.nextCause = cause === 'open' ? 'open' : this.nextCause ?? cause;
				return;
			}
			throw error;
		} finally {
			this.computing = undefined;
		}
		if (!computation) {
			// The tab must not keep naming a session it no longer shows.
			this.loadingPath = undefined;
			this.options.setTitle('Context Preview');
			await this.options.post({ type: 'empty', message: 'No Pi session is selected. Pick one in the Pi Sessions view.' });
			return;
		}
		this.overrides = this.computer.effectiveOverrides(this.overrides);
		this.options.setTitle(`Context: ${computation.snapshot.title}`);
		await this.postCurrent(cause);
		// Beside the queue, not in it: every prune's account takes seconds on a large session, and the
		// page's other answers (rows, a view, an expanded row) must not wait behind it.
		void this.costs.update();
	}

	/**
	 * Posts the current computation's snapshot, with the rows of the shown view around the page's
	 * position, built in slices (a window of big rows is tens of milliseconds of work).
	 */
	private async postCurrent(cause: RefreshCause | 'view'): Promise<void> {
		const rows = this.computer.rows;
		if (rows) {
			const head = await pageHead(this.options.work, this.computer.session, rows.snapshot.whatIf.changes.length > 0);
			const snapshot = await this.options.work.sliced(pageSnapshotSteps(rows, this.view, this.position.indexIn(rows, this.view), head));
			await this.options.post({ type: 'snapshot', snapshot, cause });
			// The pending bar says what Summarize now would do once its dry run ends: the same rows again, with it.
			void head.estimating?.then(() => this.enqueue(async () => {
				if (this.computer.rows === rows) {
					await this.postCurrent('session');
				}
			}));
		}
	}

	/** Posts what the Pi holding the session last sent (nothing before the page is ready: it gets it then). */
	postLastSent(): Promise<void> {
		const source = this.options.source;
		return this.ready && source.lastSent ? this.options.post({ type: 'lastSent', lastSent: source.lastSent() }).then(() => undefined) : Promise.resolve();
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
				this.position.showing(location.view, location.index);
				const window = await this.options.work.sliced(rows.aroundSteps(location.view, location.index));
				await this.options.post({ type: 'reveal', ...location, window });
			} else {
				this.options.notify(`"${target}" is not in the context of this session.`);
			}
		});
	}

	private async onReady(state: PageState | undefined): Promise<void> {
		this.ready = true;
		this.loadingPath = undefined;
		this.costs.forget();
		void this.costs.show(state?.costs === true);
		const current = this.options.source.current();
		// A restored page keeps its what-if only for the session it was made for.
		const restoring = state !== undefined && current !== undefined && state.sessionPath === current.path;
		this.overrides = restoring ? state.overrides : {};
		this.view = restoring ? state.view : 'after';
		if (restoring && state.anchor) {
			this.position.atKey(state.view, state.anchor.key);
		} else {
			this.position.showing(this.view);
		}
		if (this.options.reportRenders === true) {
			await this.options.post({ type: 'reportRenders' });
		}
		await this.refresh('open');
		await this.postLastSent();
		const target = this.pendingReveal;
		this.pendingReveal = undefined;
		if (target !== undefined) {
			await this.reveal(target);
		}
	}

	/** Posts the current snapshot with the rows of another view, from its top or around `index`. */
	private async showView(view: ViewName, index?: number): Promise<void> {
		this.view = view;
		this.position.showing(view, index);
		await this.postCurrent('view');
	}

	/** `work` after every piece queued before it; a failure is logged (the page's messages never reject). */
	private enqueue(work: () => Promise<void>): Promise<void> {
		return this.queue.run(work).catch((error: unknown) => {
			if (!isWorkStopped(error)) {
				this.options.log(`preview: ${errorMessage(error)}`);
			}
		});
	}
}

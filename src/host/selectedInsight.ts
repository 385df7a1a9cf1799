/**
 * The selected session's derived data (`SessionInsight`), computed in slices so that a session of
 * hundreds of MB never holds the extension host for long, and handed to the views only once it is
 * complete: until then they keep reading the previous one.
 */
import type { PreparedInsight } from '../engine/views/sessionInsight';
import { isSuperseded, runSliced } from '../node/slicing/runSliced';
import type { OpenSession } from '../node/store/openSession';
import type { RenderSettings } from '../node/settings/readPruneSettings';

export interface SelectedInsightOptions {
	/** The selected session and what it renders with, now (undefined when none is open). */
	readonly selected: () => { readonly session: Pick<OpenSession, 'path' | 'insight'>; readonly settings: RenderSettings } | undefined;
	/** A new insight is ready. */
	readonly onReady: () => void;
	readonly onError: (message: string) => void;
}

export class SelectedInsight {
	private ready: PreparedInsight | undefined;
	private preparing: { done: Promise<void>; readonly stop: AbortController } | undefined;
	/** An append arrived while preparing: prepare again once that is done. */
	private prepareAgain = false;

	constructor(private readonly options: SelectedInsightOptions) {}

	/** The last insight computed in full; undefined after `clear` until the next one is. */
	get current(): PreparedInsight | undefined {
		return this.ready;
	}

	/** Another session was selected: forget the insight and stop computing the old one. */
	clear(): void {
		this.ready = undefined;
		this.preparing?.stop.abort();
		this.preparing = undefined;
		this.prepareAgain = false;
	}

	/**
	 * Computes the selected session's insight in slices, then reports it. `supersede` (another
	 * session, new settings) stops a preparation under way; otherwise (an append) that one finishes
	 * and a new one follows it, so that a session Pi keeps writing to is still shown.
	 */
	prepare(supersede: boolean): Promise<void> {
		const running = this.preparing;
		if (running && !supersede) {
			this.prepareAgain = true;
			return running.done;
		}
		running?.stop.abort();
		this.prepareAgain = false;
		const selected = this.options.selected();
		if (!selected) {
			this.preparing = undefined;
			return Promise.resolve();
		}
		const { session, settings } = selected;
		const stop = new AbortController();
		const insight = session.insight(settings);
		const preparing = { stop, done: Promise.resolve() };
		this.preparing = preparing;
		preparing.done = runSliced(insight.prepare(), stop.signal).then((prepared) => {
			if (!stop.signal.aborted && this.options.selected()?.session === session) {
				this.ready = prepared;
				this.options.onReady();
			}
		}, (error: unknown) => {
			if (!isSuperseded(error)) {
				this.options.onError(`Could not compute the views of ${session.path}: ${String(error)}`);
			}
		}).then(() => {
			if (this.preparing !== preparing) {
				return undefined; // stopped for a newer one
			}
			this.preparing = undefined;
			return this.prepareAgain ? this.prepare(false) : undefined;
		});
		return preparing.done;
	}

	/** Resolves when no preparation is under way (tests). */
	async idle(): Promise<void> {
		while (this.preparing) {
			await this.preparing.done;
		}
	}

	dispose(): void {
		this.clear();
	}
}

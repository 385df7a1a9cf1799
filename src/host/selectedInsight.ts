/**
 * The selected session's derived data (`PreparedInsight`), computed in slices so that a session of
 * hundreds of MB never holds the extension host for long, and handed to the views only once it is
 * complete: until then they keep reading the previous one.
 */
import type { PreparedInsight } from '../engine/views';
import { isWorkStopped, type LatestWins, type WorkScope } from '../work';
import type { OpenSession } from '../node/store/openSession';
import type { RenderSettings } from '../node/settings/readPruneSettings';
import { errorMessage } from '../base/errorMessage';

export interface SelectedInsightOptions {
	/** The selected session and what it renders with, now (undefined when none is open). */
	readonly selected: () => { readonly session: Pick<OpenSession, 'path' | 'insight'>; readonly settings: RenderSettings } | undefined;
	/** A new insight is ready. */
	readonly onReady: () => void;
	readonly onError: (message: string) => void;
}

export class SelectedInsight {
	private ready: PreparedInsight | undefined;
	private readonly preparations: LatestWins;

	/** `work` is its own scope: closing it stops a preparation under way. */
	constructor(private readonly work: WorkScope, private readonly options: SelectedInsightOptions) {
		this.preparations = work.latestWins((signal) => this.prepareSelected(signal), (error) => options.onError(`Could not compute the views: ${errorMessage(error)}`));
	}

	/** The last insight computed in full; undefined after `clear` until the next one is. */
	get current(): PreparedInsight | undefined {
		return this.ready;
	}

	/** Another session was selected: forget the insight and stop computing the old one. */
	clear(): void {
		this.ready = undefined;
		this.preparations.cancel();
	}

	/**
	 * Computes the selected session's insight in slices, then reports it. `supersede` (another
	 * session, new settings) stops a preparation under way (restart); otherwise (an append) that one
	 * finishes and a new one follows it (follow), so that a session Pi keeps writing to is still shown.
	 */
	prepare(supersede: boolean): Promise<void> {
		return this.preparations.request(supersede ? 'restart' : 'follow');
	}

	/** Resolves when no preparation is under way (tests). */
	idle(): Promise<void> {
		return this.preparations.idle();
	}

	private async prepareSelected(signal: AbortSignal): Promise<void> {
		const selected = this.options.selected();
		if (!selected) {
			return;
		}
		const { session, settings } = selected;
		try {
			const prepared = await this.work.sliced(session.insight(settings).prepare(), signal);
			if (!signal.aborted && this.options.selected()?.session === session) {
				this.ready = prepared;
				this.options.onReady();
			}
		} catch (error) {
			if (isWorkStopped(error)) {
				throw error; // a newer request stopped it: nothing to say
			}
			this.options.onError(`Could not compute the views of ${session.path}: ${errorMessage(error)}`);
		}
	}
}

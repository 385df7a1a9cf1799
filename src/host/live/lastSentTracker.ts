/**
 * "Last sent" for the selected session: when a bridge says Pi holds it, the digest of the last
 * request Pi made for it, checked against what the preview predicts at that point of the session
 * (the branch ending at Pi's leaf of the time, rendered with the followed release and settings).
 * The prediction is computed in slices once the file holds that point. A difference is logged once
 * per request: it is a defect of our engine, or a pi-condense we do not follow.
 */
import { resolve } from 'node:path';
import * as vscode from 'vscode';
import { predictAtLeafSteps } from '../../engine/condense';
import { compareSent, comparisonSummary, lastSentView, lastUsageView, type LastSentView, type SentComparison } from '../../engine/live';
import { messageDigestsSteps } from '../../node/bridge/messageDigest';
import type { LivePi } from '../../node/bridge/liveBridges';
import type { RequestHistory } from '../../node/bridge/requestHistory';
import type { LatestWins, WorkScope } from '../../work';
import { errorMessage } from '../../base/errorMessage';
import { Disposable } from '../dispose';
import type { SessionController } from '../sessionController';
import type { LiveSessions } from './liveSessions';

export class LastSentTracker extends Disposable {
	private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
	/** The view changed (a request, a session or settings change, a prediction now ready). */
	readonly onDidChange = this._onDidChange.event;
	private shown: LastSentView | undefined;
	private readonly told = new Set<string>();
	/**
	 * The last comparison made, by what it depends on: the branch up to a request's leaf never changes once
	 * it is in the file, so Pi appending to the session does not make us render it again.
	 */
	private made: { readonly pid: number; readonly seq: number; readonly config: unknown; readonly rules: unknown; readonly comparison: SentComparison } | undefined;
	/** One computation at a time; a request meanwhile runs it once more after it. */
	private readonly updates: LatestWins;

	/** `work` is its own scope: closing it stops a render under way. `requests`: the requests kept per session. */
	constructor(
		private readonly work: WorkScope, private readonly controller: SessionController, private readonly live: LiveSessions, private readonly logger: vscode.LogOutputChannel,
		private readonly requests?: RequestHistory,
	) {
		super();
		this.updates = work.latestWins((signal) => this.compute(signal), (error) => this.logger.warn(`last sent: ${errorMessage(error)}`));
		const update = (): void => void this.update();
		this._register(live.onDidChange(update));
		this._register(live.onDidSend(update));
		this._register(controller.onDidChangeSelection(update));
		this._register(controller.onDidChangeSelectedSession(update));
		this._register(controller.onDidChangeSettings(update));
		if (requests) {
			this._register(requests.onDidChange(update));
		}
	}

	/** The last request of the Pi holding the selected session, with its check; undefined when none is live. */
	get view(): LastSentView | undefined {
		return this.shown;
	}

	/** Whether a comparison is being computed now (the shutdown test deactivates while one is). */
	get rendering(): boolean {
		return this.updates.isRunning;
	}

	/** The live Pi of the selected session. */
	get pi(): LivePi | undefined {
		return this.live.forSession(this.controller.selected);
	}

	/** Recomputes (one computation at a time; a request meanwhile runs it once more). */
	update(): Promise<void> {
		return this.updates.request('follow');
	}

	private async compute(signal: AbortSignal): Promise<void> {
		const path = this.controller.selected;
		const pi = this.live.forSession(path);
		const sent = pi?.last;
		if (!pi || !sent || path === undefined || sent.sessionFile === undefined || resolve(sent.sessionFile) !== resolve(pi.state.sessionFile ?? '')) {
			this.show(undefined);
			return;
		}
		const session = this.controller.selectedOpenSession();
		const settings = this.controller.renderSettings;
		const followed = settings.resolution.kind === 'followed' ? settings.rules.version : undefined;
		const kept = this.requests?.requests(path) ?? [];
		const previousSeq = kept.length >= 2 && kept.at(-1)?.head.seq === sent.seq ? kept.at(-2)?.head.seq : undefined;
		if (session?.path !== path) {
			this.show(lastSentView(pi.state, sent, undefined, followed, undefined, previousSeq));
			return;
		}
		const made = this.made;
		let comparison = made && made.pid === pi.state.pid && made.seq === sent.seq && made.config === settings.config && made.rules === settings.rules ? made.comparison : undefined;
		if (!comparison) {
			const predicted = await this.work.sliced(predictAtLeafSteps(session.model, sent.leafId, settings.config, settings.rules), signal);
			comparison = predicted === undefined ? undefined : compareSent(sent, pi.state.order, await this.work.sliced(messageDigestsSteps(predicted), signal));
			if (comparison) {
				this.made = { pid: pi.state.pid, seq: sent.seq, config: settings.config, rules: settings.rules, comparison };
			}
		}
		const view = lastSentView(pi.state, sent, comparison, followed, lastUsageView(session.costs?.lastUse(), leafIndexOf(session.model.entries, sent.leafId)), previousSeq);
		this.show(view);
		const key = `${pi.state.pid}:${sent.seq}`;
		if (comparison && !this.told.has(key)) {
			this.told.add(key);
			const where = `request ${sent.seq} of Pi ${pi.state.pid} on ${path}`;
			if (comparison.kind === 'differs') {
				this.logger.warn(`Last sent ${comparisonSummary(comparison)} (${where}). The preview predicted something else than Pi sent: a defect of Pi Condense's engine, or a pi-condense it does not follow. Please report it.`);
			} else {
				this.logger.info(`Last sent: the preview ${comparisonSummary(comparison)} (${where})`);
			}
		}
	}

	private show(view: LastSentView | undefined): void {
		if (JSON.stringify(view) !== JSON.stringify(this.shown)) {
			this.shown = view;
			this._onDidChange.fire();
		}
	}
}

/** Where the session's leaf was when Pi sent a request (-1: before the first entry); undefined when that entry is not in the file yet. */
function leafIndexOf(entries: readonly { readonly id: string }[], leafId: string | null): number | undefined {
	if (leafId === null) {
		return -1;
	}
	for (let i = entries.length - 1; i >= 0; i--) {
		if (entries[i]?.id === leafId) {
			return i;
		}
	}
	return undefined;
}

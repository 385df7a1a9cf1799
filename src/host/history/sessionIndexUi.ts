/**
 * What the user sees of the session index besides search: the first build as a notification with
 * its count and a Cancel (what was read is kept; the next start goes on from there), and, once each,
 * that the index was rebuilt or is off. Every text goes through `safeUi`.
 */
import * as vscode from 'vscode';
import type { IndexNotice } from '../../node/history/indexDatabase';
import type { IndexState, SessionStore } from '../../node/store/sessionStore';
import { Disposable } from '../dispose';
import { showInfo, showWarning, withProgress } from '../ui/safeUi';

export class SessionIndexUi extends Disposable {
	/** Resolves the shown progress (the build ended one way or another). */
	private endProgress: (() => void) | undefined;
	private report: ((state: Extract<IndexState, { kind: 'building' }>) => void) | undefined;
	private readonly told = new Set<string>();

	constructor(private readonly store: SessionStore, private readonly logger: vscode.LogOutputChannel) {
		super();
		this._register(store.onDidChange((change) => {
			if (change.kind === 'index') {
				this.follow(change.state);
			}
		}));
		this._register({ dispose: () => this.endProgress?.() });
	}

	/** The index's notices (`HistoryServiceOptions.notify`): in the log always, to the user once per kind. */
	notify(notice: IndexNotice): void {
		const text = notice.kind === 'rebuilt'
			? `The session index at ${notice.path} could not be used (${notice.reason === 'corrupt' ? 'damaged' : notice.reason === 'older' ? 'written by an older Pi Condense' : 'not a Pi Condense index'}): it was moved to ${notice.movedTo} and is built again.`
			: `The session index is off in this window: ${notice.detail}. Sessions are listed by reading their files, and Search Pi Sessions… is not available.`;
		this.logger.warn(`${text} (${notice.detail})`);
		if (this.told.has(notice.kind)) {
			return;
		}
		this.told.add(notice.kind);
		void (notice.kind === 'rebuilt' ? showInfo(text) : showWarning(text, 'Show Log').then((choice) => choice === 'Show Log' && this.logger.show(true)));
	}

	private follow(state: IndexState): void {
		if (state.kind !== 'building') {
			this.endProgress?.();
			return;
		}
		if (this.report) {
			this.report(state);
			return;
		}
		let done = 0;
		void withProgress({ location: vscode.ProgressLocation.Notification, title: 'Pi Condense: indexing your Pi sessions', cancellable: true }, (progress, token) => {
			token.onCancellationRequested(() => {
				this.logger.info('session index: the build was cancelled; what was read is kept, and the next start goes on from there');
				this.store.sessionIndex?.cancelBuild();
			});
			this.report = ({ progress: { filesDone, filesTotal } }) => {
				const percent = filesTotal === 0 ? 100 : (100 * filesDone) / filesTotal;
				progress.report({ message: `${filesDone.toLocaleString()} of ${filesTotal.toLocaleString()} sessions`, increment: Math.max(0, percent - done) });
				done = percent;
			};
			this.report(state);
			return new Promise<void>((resolve) => {
				this.endProgress = () => {
					this.report = undefined;
					this.endProgress = undefined;
					resolve();
				};
			});
		});
	}
}

/**
 * After a flush of ours, watches the session for what Pi does next: if Pi (which does not re-read
 * the file while it runs) appends from its own leaf, our entries are stranded on a side branch. The
 * user is told, with the offer to run the flush again on the active branch.
 */
import * as vscode from 'vscode';
import { WrittenEntriesWatch, type StrandedEntries } from '../../node/store/writtenEntriesWatch';
import { CommandId } from '../commandIds';
import { Disposable } from '../dispose';
import type { SessionController } from '../sessionController';
import { showWarning } from '../ui/safeUi';
import { errorMessage } from '../../base/errorMessage';
import { isWorkStopped, type WorkScope } from '../../work';


/** The button names what it does: Summarize Now on the active branch (asking first, as the command does). */
const SUMMARIZE_AGAIN = 'Summarize Again';
export class StrandedEntriesMonitor extends Disposable {
	private readonly _onDidStrandEntries = this._register(new vscode.EventEmitter<{ readonly path: string; readonly state: StrandedEntries }>());
	readonly onDidStrandEntries = this._onDidStrandEntries.event;
	private readonly written: WrittenEntriesWatch;

	/** `work` is its own scope: the checks run under it. */
	constructor(work: WorkScope, private readonly controller: SessionController, private readonly logger: vscode.LogOutputChannel) {
		super();
		this.written = new WrittenEntriesWatch(work);
		this._register(controller.onDidChangeOpenSession((path) => void this.check(path)));
		this._register(controller.onDidChangeSessions((paths) => {
			for (const path of paths ?? []) {
				void this.check(path);
			}
		}));
	}

	/** Starts watching the entries just appended to `path`. */
	track(path: string, ids: readonly string[]): void {
		this.written.track(path, ids);
	}

	/** Our entries in `path` were removed again (Undo Last Prune): nothing is stranded. */
	untrack(path: string): void {
		this.written.forget(path);
	}

	private async check(path: string): Promise<void> {
		if (!this.written.isTracked(path)) {
			return;
		}
		try {
			const stranded = await this.written.check(path, (await this.controller.openSession(path)).model);
			if (stranded) {
				this.report(path, stranded);
			}
		} catch (error) {
			if (!isWorkStopped(error)) {
				this.logger.warn(`checking our entries in ${path}: ${errorMessage(error)}`);
			}
		}
	}

	private report(path: string, state: StrandedEntries): void {
		const message = `Pi continued "${this.controller.titleOf(path)}" from before the ${state.stranded.length} entries Pi Condense wrote `
			+ `(its entry ${state.firstDivergingEntryId} does not follow them), so they are on a side branch and the model does not see them. `
			+ `This happens when Pi was still attached to the session. ${SUMMARIZE_AGAIN} summarizes the pending batches again on the active branch.`;
		this.logger.warn(`${path}: ${message}`);
		this._onDidStrandEntries.fire({ path, state });
		void showWarning(`Pi Condense: ${message}`, SUMMARIZE_AGAIN).then(async (choice) => {
			if (choice) {
				await this.controller.select(path);
				await vscode.commands.executeCommand(CommandId.FlushNow);
			}
		});
	}
}

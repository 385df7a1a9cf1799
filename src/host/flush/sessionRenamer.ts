/**
 * Rename Session…: writes the session's new display name as Pi's `/name` does (a `session_info`
 * entry appended after the leaf: Pi's `/resume` and our list then show it), through the same safe
 * writer as a flush (an idle session Pi does not hold, append-only, read back), and remembers the
 * write so that the toast's Undo (or Undo Last Prune) takes it back byte for byte. Refused in
 * restricted mode and while a flush runs.
 */
import * as vscode from 'vscode';
import { sessionInfoDraft } from '../../engine/write';
import { restrictedModeRefusal } from '../../engine/views';
import { writeEntriesToSession, type PiHolderCheck } from '../../node/write';
import type { WorkScope } from '../../work';
import { CommandId } from '../commandIds';
import type { SessionController } from '../sessionController';
import { showInfo, showInputBox, showWarning } from '../ui/safeUi';
import type { UndoPrunes } from './undoPrunes';


/** The toast's button names what it undoes. */
const UNDO_RENAME = 'Undo Rename';
export interface SessionRenamerOptions {
	readonly work: WorkScope;
	readonly controller: SessionController;
	readonly undo: UndoPrunes;
	readonly isFlushing: () => boolean;
	readonly logger: vscode.LogOutputChannel;
	readonly checkPiHolders?: PiHolderCheck;
}

/** What a rename did: the name written, or why nothing was. */
export type RenameOutcome = { readonly kind: 'renamed'; readonly name: string } | { readonly kind: 'unchanged' | 'cancelled' } | { readonly kind: 'refused'; readonly reason: string };

export class SessionRenamer {
	constructor(private readonly options: SessionRenamerOptions) {}

	/** Asks for the name (unless `name` is given), writes it, and says what happened. */
	async rename(path: string, name?: string): Promise<RenameOutcome> {
		const { controller, logger } = this.options;
		const title = controller.titleOf(path);
		const refused = restrictedModeRefusal('rename', vscode.workspace.isTrusted)
			?? (this.options.isFlushing() ? 'a flush is running: wait for it or cancel it, then rename' : undefined);
		if (refused !== undefined) {
			void showWarning(`Pi Condense did not rename "${title}": ${refused}`);
			return { kind: 'refused', reason: refused };
		}
		const current = controller.row(path)?.summary?.summary.name;
		const chosen = name ?? await showInputBox({
			title: `Pi Condense: rename "${title}"`,
			prompt: 'The name Pi shows for this session (in /resume) and Pi Condense shows in its list. Written to the session file as Pi\'s /name writes it; Undo takes it back. Empty: the session is named by its first message again.',
			value: current ?? title,
		});
		if (chosen === undefined) {
			return { kind: 'cancelled' };
		}
		const draft = sessionInfoDraft(chosen);
		if (draft.name === (current ?? '')) {
			return { kind: 'unchanged' };
		}
		// The store's reader follows the file: no model is built here after the write.
		const holders = this.options.checkPiHolders ? { checkPiHolders: this.options.checkPiHolders } : {};
		const result = await this.options.work.run(() => writeEntriesToSession(this.options.work, path, [draft], { ...holders, modelAfterWrite: false }));
		if (result.kind === 'written' && result.written) {
			this.options.undo.remember(path, result.written, 1, 'rename');
			logger.info(`renamed ${path}: wrote a session_info entry (${result.written.length} bytes at ${result.written.start})`);
			const said = draft.name === '' ? `"${title}" is named by its first message again` : `renamed "${title}" to "${draft.name}"`;
			void showInfo(`Pi Condense: ${said}.`, UNDO_RENAME).then((choice) => choice === UNDO_RENAME && vscode.commands.executeCommand(CommandId.UndoLastPrune, path, 'toast'));
			return { kind: 'renamed', name: draft.name };
		}
		const reason = result.kind === 'refused' ? result.refusal.message : result.kind === 'disturbed' ? result.message : 'nothing was written';
		logger.warn(`rename of ${path} not written: ${reason}`);
		void showWarning(`Pi Condense did not rename "${title}": ${reason}`);
		return { kind: 'refused', reason };
	}
}

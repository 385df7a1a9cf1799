/**
 * What the user is told after a flush: the log gets pi-condense's notices word for word, then our
 * account of the flush in counts that add up (summarized and skipped batches, and how the summaries
 * were written: by which model, or offline and why); the toast says the same account, with Undo
 * and Open Preview after a write (with what it reclaimed beside the estimate given before it), and
 * what to do after a refusal or a failure.
 */
import * as vscode from 'vscode';
import { flushAccount, type FlushMode, notices as flushNotices } from '../../engine/flush';
import type { FlushOutcome } from '../../node/flush/flushOutcome';
import type { FlushEstimate } from '../../engine/preview';
import { CommandId } from '../commandIds';
import { showError, showInfo, showWarning } from '../ui/safeUi';
import { howSummarized, resultText } from './prunePlanText';

/** A first flush may skip tens of thousands of trivial batches: the log shows this many, then counts the rest. */
const LOGGED_SKIPS_PER_RUN = 50;
const INSTALL_ACTION = 'Install pi-condense in Pi…';
const COMPACT_ACTION = 'Compact';
const UNDO_ACTION = 'Undo Prune';
const PREVIEW_ACTION = 'Open Preview';

export interface OutcomeContext {
	readonly mode: FlushMode;
	readonly interactive: boolean;
	readonly sessionPath: string;
	readonly title: string;
	readonly logger: vscode.LogOutputChannel;
	readonly piCondenseMissing: boolean;
	/** What the dry run before the prune said it would reclaim (the confirmation's and the preview's figure), set beside the result. */
	readonly estimate?: FlushEstimate;
}

export function tellOutcome(outcome: FlushOutcome, context: OutcomeContext): void {
	const { logger, interactive, sessionPath, title } = context;
	// The last notice is the message, logged below with the session's name.
	const notices = [...outcome.notices.shortened(LOGGED_SKIPS_PER_RUN)];
	for (const notice of notices.slice(0, -1)) {
		logger.info(notice);
	}
	const text = `${outcome.message} (session "${title}")${outcome.advice ? ` ${outcome.advice}` : ''}`;
	const left = outcome.report?.compactableChains ?? 0;
	switch (outcome.kind) {
		case 'written':
		case 'nothing': {
			const told = left > 0 ? `${text} · ${flushNotices.compactableChainsText(left)}` : text;
			logger.info(told);
			const account = outcome.report ? flushAccount(context.mode, outcome.report, howSummarized(outcome.summarizer, outcome.offlineReason)) : told;
			logger.info(`Pi Condense: ${account}`);
			if (interactive || outcome.kind === 'written') {
				const wrote = outcome.kind === 'written' && outcome.written !== undefined;
				const actions = [...(wrote ? [UNDO_ACTION, PREVIEW_ACTION] : []), ...(left > 0 ? [COMPACT_ACTION] : [])];
				const shown = outcome.kind === 'written' ? resultText(`${account}${wrote ? ` ${outcome.entries?.length ?? 0} entries appended; Undo Prune removes them.` : ''}`, title, outcome.sent, context.estimate) : `${resultText(account, title, undefined, undefined)}${left > 0 ? ` ${flushNotices.compactableChainsText(left)}.` : ''}`;
				void showInfo(shown, ...actions).then((choice) => act(choice, sessionPath));
			}
			return;
		}
		case 'aborted':
			logger.info(text);
			if (interactive) {
				void showInfo(text);
			}
			return;
		case 'refused':
			logger.warn(text);
			// flushSession refused because Pi has no pi-condense: offer to install it.
			if (interactive && context.piCondenseMissing) {
				void showWarning(text, INSTALL_ACTION).then((choice) => choice && vscode.commands.executeCommand(CommandId.InstallPiCondense));
			} else if (interactive) {
				void showWarning(text);
			}
			return;
		case 'failed': {
			logger.error(text);
			const wrote = outcome.written !== undefined && (outcome.entries?.length ?? 0) > 0;
			void showError(text, ...(wrote ? [UNDO_ACTION] : []), 'Show Log').then((choice) => (choice === 'Show Log' ? logger.show(true) : act(choice, sessionPath)));
			return;
		}
	}
}

function act(choice: string | undefined, sessionPath: string): void {
	switch (choice) {
		case UNDO_ACTION:
			void vscode.commands.executeCommand(CommandId.UndoLastPrune, sessionPath, 'toast');
			return;
		case PREVIEW_ACTION:
			void vscode.commands.executeCommand(CommandId.OpenPreview);
			return;
		case COMPACT_ACTION:
			void vscode.commands.executeCommand(CommandId.Compact, sessionPath);
			return;
		default:
			return;
	}
}

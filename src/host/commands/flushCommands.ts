/**
 * `/pruner now`, `/pruner compact` and Undo Last Prune: flush the selected session (or the one
 * given) through the FlushRunner, after the confirmation that says what will be written
 * (`piCondense.confirmPrune`), and take our last write out again. Each returns its outcome. A session
 * a live Pi holds is not written from here: its bridge puts the command into Pi's editor instead, or
 * says what to type where it cannot (then there is no outcome).
 */
import * as vscode from 'vscode';
import type { FlushOutcome } from '../../node/flush/flushOutcome';
import { UndoPrunes, type UndoOutcome } from '../flush/undoPrunes';
import { requireSession, type CommandContext } from './commandContext';
import { CommandId } from '../commandIds';
import { registerCommand, showInfo, showWarning } from '../ui/safeUi';

/** The question's button names what it undoes. */
const UNDO_PRUNE = 'Undo Prune';
const UNDO_RENAME = 'Undo Rename';

export function registerFlushCommands(context: CommandContext): vscode.Disposable[] {
	const run = async (mode: 'now' | 'compact', path: unknown): Promise<FlushOutcome | undefined> => {
		const sessionPath = typeof path === 'string' ? path : requireSession(context, mode === 'now' ? 'summarize its pending batches' : 'compact its chains');
		if (sessionPath === undefined) {
			context.logger.info(`${mode === 'now' ? 'Summarize Now' : 'Compact Now'} asked for no session (none selected)`);
			return undefined;
		}
		return context.prune.run(mode, sessionPath);
	};
	return [
		registerCommand(CommandId.FlushNow, (path?: unknown) => run('now', path)),
		registerCommand(CommandId.Compact, (path?: unknown) => run('compact', path)),
		registerCommand(CommandId.UndoLastPrune, (path?: unknown, how?: unknown) => undoLastPrune(context, typeof path === 'string' ? path : context.controller.selected, how === 'toast')),
	];
}

/** From the palette (or a link) it first says what will be removed; the toast's Undo button has said it already. */
async function undoLastPrune(context: CommandContext, path: string | undefined, fromToast: boolean): Promise<UndoOutcome | undefined> {
	const { controller, undo, logger } = context;
	const record = undo.last(path) ?? (path === undefined ? undefined : undo.last(undefined));
	if (record && !fromToast && context.settings.current.confirmPrune && undo.refusal() === undefined) {
		const what = record.mode === 'rename' ? 'rename' : 'prune';
		const button = record.mode === 'rename' ? UNDO_RENAME : UNDO_PRUNE;
		const choice = await showInfo(`Undo the last ${what} of "${controller.titleOf(record.path)}"?`, {
			modal: true,
			detail: `Removes the ${UndoPrunes.describe(record)}: the session file becomes, byte for byte, what it was before. Only while nothing was written after them, and not while Pi holds the session.`,
		}, button).catch(() => undefined);
		if (choice !== button) {
			return undefined;
		}
	}
	const { record: undone, outcome } = await undo.undo(record?.path ?? path);
	const title = undone ? controller.titleOf(undone.path) : path === undefined ? 'the selected session' : controller.titleOf(path);
	switch (outcome.kind) {
		case 'undone':
			if (undone) {
				context.monitor.untrack(undone.path);
				logger.info(`undid the last prune of ${undone.path}: removed ${outcome.removedBytes} bytes (${undone.entries} entries); the file is ${outcome.size} bytes again`);
				void showInfo(`Pi Condense: undid the last ${undone.mode === 'rename' ? 'rename' : 'prune'} of "${title}": removed its ${UndoPrunes.describe(undone)}. The file is what it was before, byte for byte.`);
			}
			break;
		case 'nothing':
			void showInfo(`Pi Condense: nothing to undo for "${title}". ${outcome.reason}`);
			break;
		case 'refused':
			logger.warn(`undo of the last prune of ${undone?.path ?? path ?? '?'} refused: ${outcome.reason}`);
			void showWarning(`Pi Condense did not undo the last prune of "${title}": ${outcome.reason}. ${undoAdvice(outcome.code)}`.trim());
			break;
	}
	for (const note of outcome.kind === 'nothing' ? [] : outcome.notes) {
		logger.warn(note);
	}
	return outcome;
}

function undoAdvice(code: string): string {
	switch (code) {
		case 'appended':
			return 'Pi went on after the prune; to drop the summaries from what is sent, turn pruning off or go back in Pi with /tree.';
		case 'pi-running':
			return 'Close Pi on this session (or wait until it is idle), then undo again.';
		case 'changed':
		case 'flushing':
			return 'Try again in a moment.';
		case 'restricted':
			return '';
		default:
			return 'The record of that prune is dropped: the file is no longer what Pi Condense wrote.';
	}
}

/**
 * `/pruner now` and `/pruner compact`: flush the selected session (or the one given) through the
 * FlushRunner. Each returns the flush's outcome. A session a live Pi holds is not written from here:
 * its bridge puts the command into Pi's editor instead (then there is no outcome).
 */
import * as vscode from 'vscode';
import type { FlushOutcome } from '../../node/flush/flushOutcome';
import { requireSession, type CommandContext } from './commandContext';
import { CommandId } from './commandIds';
import { registerCommand } from '../ui/safeUi';

export function registerFlushCommands(context: CommandContext): vscode.Disposable[] {
	const run = async (mode: 'now' | 'compact', path: unknown): Promise<FlushOutcome | undefined> => {
		const sessionPath = typeof path === 'string' ? path : requireSession(context, mode === 'now' ? 'summarize its pending batches' : 'compact its chains');
		if (sessionPath === undefined || (await context.prunerInPi?.(mode, sessionPath)) !== undefined) {
			return undefined;
		}
		return context.flushRunner.run(mode, sessionPath);
	};
	return [
		registerCommand(CommandId.FlushNow, (path?: unknown) => run('now', path)),
		registerCommand(CommandId.Compact, (path?: unknown) => run('compact', path)),
	];
}

/**
 * Commands on refs and rows of the Pruned Calls view: recover a raw output (the `pi-condense:`
 * document, exactly what `context_tree_query` returns), copy a ref, open a summary or chain as
 * markdown, open a spilled output's blob file, reveal a ref in the view, go to a problem's line.
 * Each accepts a tree row, a `{ sessionPath, ref }` (hover links) or a bare ref (selected session).
 */
import * as vscode from 'vscode';
import { blobFileNames, resolveRecoveryId } from '../../engine/condense';
import { blobFileInside, resolveBlobFolder } from '../../node/condense/blobFolder';
import { pruneUri } from '../recovery/pruneUris';
import { UnlistedSessionError } from '../sessionDirectory';
import { PrunedTreeNode } from '../tree/prunedCallsNodes';
import { requireSession, type CommandContext } from './commandContext';
import { CommandId } from '../commandIds';
import { errorMessage } from '../../base/errorMessage';
import { registerCommand, showInputBox, showWarning } from '../ui/safeUi';

export interface RefTarget {
	readonly sessionPath: string;
	readonly ref: string;
}

/** Opens the `pi-condense:` document of a ref's raw output (what `context_tree_query` returns); its URI. */
export async function openRecovered(target: RefTarget): Promise<string> {
	const uri = pruneUri({ kind: 'recovered', ...target });
	const document = await vscode.workspace.openTextDocument(uri);
	await vscode.window.showTextDocument(document, { preview: true });
	return uri.toString();
}

export function registerRecoveryCommands(context: CommandContext): vscode.Disposable[] {
	const { controller } = context;
	return [
		registerCommand(CommandId.RecoverOutput, async (argument?: unknown) => {
			const target = refTarget(argument, controller.selected) ?? await askRef(context);
			return target ? openRecovered(target) : undefined;
		}),
		registerCommand(CommandId.CopyRef, async (argument?: unknown) => {
			const target = refTarget(argument, controller.selected);
			if (target) {
				await vscode.env.clipboard.writeText(target.ref);
				void vscode.window.setStatusBarMessage(`Copied ${target.ref}`, 2000);
			}
			return target?.ref;
		}),
		registerCommand(CommandId.OpenSummary, async (node?: unknown) => {
			if (!(node instanceof PrunedTreeNode) || (node.data.kind !== 'summary' && node.data.kind !== 'chain')) {
				return undefined;
			}
			const uri = node.data.kind === 'summary'
				? pruneUri({ kind: 'summary', sessionPath: node.sessionPath, entryId: node.data.entryId })
				: pruneUri({ kind: 'chain', sessionPath: node.sessionPath, blockId: node.data.blockId });
			await vscode.commands.executeCommand('markdown.showPreview', uri).then(undefined, () => vscode.window.showTextDocument(uri));
			return uri.toString();
		}),
		registerCommand(CommandId.OpenBlob, async (argument?: unknown) => {
			const target = refTarget(argument, controller.selected);
			const found = target ? await blobFile(context, target).catch((error: unknown) => ({ refused: errorMessage(error) })) : undefined;
			if (typeof found !== 'string') {
				const why = found?.refused ?? `no spilled output file found${target ? ` for ${target.ref}` : ''}. pi-condense keeps them in <session id>-blobs/ next to the session file.`;
				context.logger.warn(`Open Spilled Output File: ${why}`);
				void showWarning(`Pi Condense: ${why}`);
				return undefined;
			}
			await vscode.window.showTextDocument(vscode.Uri.file(found), { preview: true });
			return found;
		}),
		registerCommand(CommandId.RevealRef, async (argument?: unknown) => {
			const target = refTarget(argument, controller.selected);
			if (!target) {
				return false;
			}
			if (!controller.knowsSession(target.sessionPath)) {
				void showWarning(`Pi Condense: ${new UnlistedSessionError(target.sessionPath).message}`);
				return false;
			}
			if (target.sessionPath !== controller.selected) {
				await controller.select(target.sessionPath);
			}
			return context.prunedTree.reveal(target.ref);
		}),
		registerCommand(CommandId.OpenProblem, async (sessionPath?: string, line?: number) => {
			if (typeof sessionPath !== 'string' || typeof line !== 'number') {
				return;
			}
			const position = new vscode.Position(Math.max(0, line - 1), 0);
			await vscode.window.showTextDocument(vscode.Uri.file(sessionPath), { selection: new vscode.Range(position, position) });
		}),
	];
}

/** Reads the command argument: a tree row, `{ sessionPath, ref }`, or a ref of the selected session. */
function refTarget(argument: unknown, selected: string | undefined): RefTarget | undefined {
	if (argument instanceof PrunedTreeNode) {
		const ref = argument.recoveryId;
		return ref === undefined ? undefined : { sessionPath: argument.sessionPath, ref };
	}
	if (typeof argument === 'string' && argument.trim() !== '' && selected !== undefined) {
		return { sessionPath: selected, ref: argument.trim() };
	}
	if (typeof argument === 'object' && argument !== null && 'sessionPath' in argument && 'ref' in argument) {
		const { sessionPath, ref } = argument;
		return typeof sessionPath === 'string' && typeof ref === 'string' ? { sessionPath, ref } : undefined;
	}
	return undefined;
}

async function askRef(context: CommandContext): Promise<RefTarget | undefined> {
	const sessionPath = requireSession(context, 'recover a raw output');
	if (!sessionPath) {
		return undefined;
	}
	const { state } = await context.controller.stateFor(sessionPath);
	const ref = await showInputBox({
		title: `Pi Condense: recover raw output from "${context.controller.titleOf(sessionPath)}"`,
		prompt: `A ref such as t12, a tool-call id or a dedup alias id (${state.refs.size} refs in this session).`,
		validateInput: (value) => value.trim() === '' || resolveRecoveryId(state, value.trim()).length > 0 ? undefined : `${value.trim()} is not in this session's index (it may not have been summarized yet).`,
	});
	return ref === undefined || ref.trim() === '' ? undefined : { sessionPath, ref: ref.trim() };
}

/** The blob file of a spilled ref; `refused` when the session's blobs folder is not safe to read. */
async function blobFile(context: CommandContext, target: RefTarget): Promise<string | { readonly refused: string } | undefined> {
	const { session, state } = await context.controller.stateFor(target.sessionPath);
	const id = session.model.header?.id;
	const record = resolveRecoveryId(state, target.ref)[0]?.record;
	if (!id || !record?.spillPath) {
		return undefined;
	}
	const folder = await resolveBlobFolder(target.sessionPath, id);
	if (folder.kind !== 'ok') {
		return folder.kind === 'refused' ? { refused: folder.reason } : undefined;
	}
	for (const name of blobFileNames(record)) {
		const file = await blobFileInside(folder.directory, name);
		if (file !== undefined) {
			return file;
		}
	}
	return undefined;
}

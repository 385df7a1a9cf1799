/**
 * Hovers over refs in Pi session files and in our own documents: `tN`, `bN`, raw tool-call ids and
 * dedup alias ids show the head of the raw output (or the chain's refs) with links that open the
 * full output or reveal the row in the Pruned Calls view.
 */
import * as vscode from 'vscode';
import { rawOutput, resolveRecoveryId, type CondenseState } from '../../engine/condense';
import type { BlobReader } from '../../engine/ports';
import { codeBlock, joinMarkdown, md, SafeMarkdown, toolCallLabel } from '../../engine/views';
import { CommandId, HOVER_COMMANDS } from '../commandIds';
import type { SessionController } from '../sessionController';
import { markdownString } from '../ui/safeUi';
import { PRUNE_SCHEME, sessionOfPruneUri } from './pruneUris';
import { isWorkStopped } from '../../work';
import { toAbortSignal } from '../cancellation';

/** Characters that make up a ref or a tool-call id (`t12`, `call_abc|fc_1`, `toolu_01…`). */
const REF_WORD = /[A-Za-z0-9_|-]+/;
const HEAD_LINES = 12;
const HEAD_CHARS = 1000;

export const HOVER_SELECTOR: vscode.DocumentSelector = [{ scheme: 'file', language: 'jsonl' }, { scheme: 'file', pattern: '**/*.jsonl' }, { scheme: PRUNE_SCHEME }];

export class RefHoverProvider implements vscode.HoverProvider {
	constructor(private readonly controller: SessionController) {}

	async provideHover(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.Hover | undefined> {
		const sessionPath = document.uri.scheme === PRUNE_SCHEME ? sessionOfPruneUri(document.uri) : document.uri.fsPath;
		if (sessionPath === undefined || !this.controller.knowsSession(sessionPath)) {
			return undefined;
		}
		const range = document.getWordRangeAtPosition(position, REF_WORD);
		const word = range ? document.getText(range) : '';
		if (!range || word.length < 2) {
			return undefined;
		}
		const cancel = toAbortSignal(token);
		try {
			const { session, state } = await this.controller.stateFor(sessionPath, cancel.signal);
			const parts = await hoverMarkdown(state, word, sessionPath, session.blobs);
			return parts && !token.isCancellationRequested ? new vscode.Hover(parts, range) : undefined;
		} catch (error) {
			if (isWorkStopped(error)) {
				return undefined; // the hover was cancelled
			}
			throw error;
		} finally {
			cancel.dispose();
		}
	}
}

/** Refs a chain may list: `t12`, `b3`. Anything else in `toolRefs` is session text, never a link. */
const LINKABLE_REF = /^[tb]\d+$/;

/**
 * The hover for `word`, or undefined when it is not a ref of this session. Only our command links
 * are trusted markdown; everything from the session (the tool's label, the chain's refs, the output
 * itself) is in untrusted parts, and the output in a code block it cannot close.
 */
async function hoverMarkdown(state: CondenseState, word: string, sessionPath: string, blobs: BlobReader): Promise<vscode.MarkdownString[] | undefined> {
	const chain = /^b\d+$/.test(word) ? state.chains.find((candidate) => candidate.entry.blockId === word) : undefined;
	if (chain) {
		const refs = chain.entry.toolRefs.filter((ref) => LINKABLE_REF.test(ref));
		const others = chain.entry.toolRefs.filter((ref) => !LINKABLE_REF.test(ref));
		const header = md`**${word}** · compressed chain · ${chain.entry.droppedToolCallIds.length} tool calls dropped${others.length > 0 ? md`\n\nAlso listed, not refs: ${others.join(', ')}` : ''}`;
		const links = md`Refs: ${refs.length > 0 ? joinMarkdown(refs.map((ref) => commandLink(ref, CommandId.RecoverOutput, { sessionPath, ref })), ', ') : 'none'}`;
		return [markdownString(header), trusted(links), markdownString(codeBlock(head(chain.bodyText), 'markdown'))];
	}
	const found = resolveRecoveryId(state, word);
	const first = found[0];
	if (!first) {
		return undefined;
	}
	const record = first.record;
	const raw = await rawOutput(record, blobs);
	const size = record.resultText.length || record.spillBytes || raw.length;
	const label = toolCallLabel(record.toolName, record.args, size, record.resultText ? 'chars' : 'bytes', record.isError);
	const header = md`**${word}** · ${label} · turn ${record.turnIndex}${found.length > 1 ? md` · ${found.length} occurrences` : ''}`;
	// The links come before the output: a long head scrolls inside the hover.
	const links = joinMarkdown([
		commandLink('$(output) Open full output', CommandId.RecoverOutput, { sessionPath, ref: word }, true),
		commandLink('$(list-selection) Reveal in Pruned Calls', CommandId.RevealRef, { sessionPath, ref: word }, true),
	], ' · ');
	return [markdownString(header), trusted(links), markdownString(codeBlock(head(raw), 'text'))];
}

/** Our links only: the one part of a hover that may run a command (and only the hover's three). */
function trusted(links: SafeMarkdown): vscode.MarkdownString {
	return markdownString(links, { commands: HOVER_COMMANDS, icons: true });
}

/**
 * A link to one of our commands; its argument is URI-encoded, `(` and `)` included (which
 * `encodeURIComponent` leaves), so no path or ref can end the link early. `ownIcon`: the label is
 * ours and starts with a codicon.
 */
function commandLink(label: string, command: string, argument: unknown, ownIcon = false): SafeMarkdown {
	const target = `command:${command}?${encodeURIComponent(JSON.stringify([argument])).replace(/\(/g, '%28').replace(/\)/g, '%29')}`;
	return md`[${ownIcon ? new SafeMarkdown(label) : label}](${new SafeMarkdown(target)})`;
}

function head(text: string): string {
	const lines = text.split('\n');
	let cut = lines.slice(0, HEAD_LINES).join('\n');
	if (cut.length > HEAD_CHARS) {
		cut = cut.slice(0, HEAD_CHARS);
	}
	return cut.length < text.length ? `${cut}\n…` : cut;
}

/**
 * Hovers over refs in Pi session files and in our own documents: `tN`, `bN`, raw tool-call ids and
 * dedup alias ids show the head of the raw output (or the chain's refs) with links that open the
 * full output or reveal the row in the Pruned Calls view.
 */
import * as vscode from 'vscode';
import { rawOutput, resolveRecoveryId, type CondenseState } from '../../engine/condense';
import type { BlobReader } from '../../engine/ports';
import { codeBlock } from '../../engine/views/inertMarkdown';
import { toolCallLabel } from '../../engine/views/toolCallText';
import { CommandId, HOVER_COMMANDS } from '../commands/commandIds';
import type { SessionController } from '../sessionController';
import { escapeMarkdown } from '../tree/sessionsTreeProvider';
import { PRUNE_SCHEME, sessionOfPruneUri } from './pruneUris';
import { isSuperseded } from '../../node/slicing/runSliced';
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
			if (isSuperseded(error)) {
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
export async function hoverMarkdown(state: CondenseState, word: string, sessionPath: string, blobs: BlobReader): Promise<vscode.MarkdownString[] | undefined> {
	const chain = /^b\d+$/.test(word) ? state.chains.find((candidate) => candidate.entry.blockId === word) : undefined;
	if (chain) {
		const refs = chain.entry.toolRefs.filter((ref) => LINKABLE_REF.test(ref));
		const others = chain.entry.toolRefs.filter((ref) => !LINKABLE_REF.test(ref));
		const header = new vscode.MarkdownString(`**${word}** · compressed chain · ${chain.entry.droppedToolCallIds.length} tool calls dropped`);
		if (others.length > 0) {
			header.appendMarkdown('\n\nAlso listed, not refs: ');
			header.appendText(others.join(', '));
		}
		const links = trustedMarkdown();
		links.appendMarkdown(`Refs: ${refs.map((ref) => commandLink(ref, CommandId.RecoverOutput, { sessionPath, ref })).join(', ') || 'none'}`);
		return [header, links, new vscode.MarkdownString(codeBlock(head(chain.bodyText), 'markdown'))];
	}
	const found = resolveRecoveryId(state, word);
	const first = found[0];
	if (!first) {
		return undefined;
	}
	const record = first.record;
	const raw = await rawOutput(record, blobs);
	const header = new vscode.MarkdownString(`**${escapeMarkdown(word)}** · `);
	const size = record.resultText.length || record.spillBytes || raw.length;
	header.appendText(`${toolCallLabel(record.toolName, record.args, size, record.resultText ? 'chars' : 'bytes', record.isError)} · turn ${record.turnIndex}`);
	if (found.length > 1) {
		header.appendMarkdown(` · ${found.length} occurrences`);
	}
	// The links come before the output: a long head scrolls inside the hover.
	const links = trustedMarkdown();
	links.appendMarkdown([
		commandLink('$(output) Open full output', CommandId.RecoverOutput, { sessionPath, ref: word }),
		commandLink('$(list-selection) Reveal in Pruned Calls', CommandId.RevealRef, { sessionPath, ref: word }),
	].join(' · '));
	return [header, links, new vscode.MarkdownString(codeBlock(head(raw), 'text'))];
}

/** Our links only: the one part of a hover that may run a command (and only the hover's three). */
function trustedMarkdown(): vscode.MarkdownString {
	const markdown = new vscode.MarkdownString('', true);
	markdown.isTrusted = { enabledCommands: [...HOVER_COMMANDS] };
	return markdown;
}

function commandLink(text: string, command: string, argument: unknown): string {
	return `[${text}](command:${command}?${encodeURIComponent(JSON.stringify([argument]))})`;
}

function head(text: string): string {
	const lines = text.split('\n');
	let cut = lines.slice(0, HEAD_LINES).join('\n');
	if (cut.length > HEAD_CHARS) {
		cut = cut.slice(0, HEAD_CHARS);
	}
	return cut.length < text.length ? `${cut}\n…` : cut;
}

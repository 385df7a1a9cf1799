/**
 * Serves the read-only `pi-condense:` documents. A recovered output is exactly what pi-condense's
 * `context_tree_query` tool returns for the ref (`recoverOutputs`), so what the user reads is what
 * the model would read. Documents of a session update when the session changes.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../base/errorMessage';
import { Disposable } from '../dispose';
import type { SessionController } from '../sessionController';
import { UnlistedSessionError } from '../sessionDirectory';
import { inertMarkdown, md } from '../../engine/views';
import { helpMarkdown } from './helpText';
import { parsePruneUri, PRUNE_SCHEME, pruneUri, sessionOfPruneUri } from './pruneUris';

export class PruneDocumentProvider extends Disposable implements vscode.TextDocumentContentProvider {
	private readonly _onDidChange = this._register(new vscode.EventEmitter<vscode.Uri>());
	readonly onDidChange = this._onDidChange.event;

	/** `status`: Show Status's report as markdown, composed when the document is read. */
	constructor(private readonly controller: SessionController, private readonly status: () => Promise<string>) {
		super();
		this._register(vscode.workspace.registerTextDocumentContentProvider(PRUNE_SCHEME, this));
		this._register(controller.onDidChangeOpenSession((path) => this.refreshSession(path)));
		this._register(controller.onDidChangeSettings(() => {
			this.refreshSession(undefined);
			this.refreshStatus();
		}));
		this._register(controller.onDidChangeSelection(() => this.refreshStatus()));
	}

	/** Show Status's document is read again (when it is open). */
	refreshStatus(): void {
		const status = pruneUri({ kind: 'status' });
		if (vscode.workspace.textDocuments.some((document) => document.uri.toString() === status.toString())) {
			this._onDidChange.fire(status);
		}
	}

	/**
	 * Never rejects: a document VS Code reads again (the session changed, Refresh) whose content cannot
	 * be made says why in its place. A rejection left the old text with nothing said but VS Code's
	 * "An unknown error occurred" in its log.
	 */
	async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
		try {
			return await this.content(uri);
		} catch (error) {
			return md`Pi Condense could not show this document: ${errorMessage(error)}`.value;
		}
	}

	private async content(uri: vscode.Uri): Promise<string> {
		const document = parsePruneUri(uri);
		if (!document) {
			return `Unknown Pi Condense document: ${uri.toString()}`;
		}
		if (document.kind === 'help') {
			return helpMarkdown();
		}
		if (document.kind === 'status') {
			return this.status();
		}
		if (!this.controller.knowsSession(document.sessionPath)) {
			return new UnlistedSessionError(document.sessionPath).message;
		}
		if (document.kind === 'recovered') {
			return this.controller.recover(document.sessionPath, [document.ref]);
		}
		// Shown by the markdown preview: model text goes in without images or HTML.
		const { state } = await this.controller.stateFor(document.sessionPath);
		if (document.kind === 'summary') {
			const summary = state.summaries.find((candidate) => candidate.entryId === document.entryId);
			return (summary ? inertMarkdown(summary.text) : md`No pi-condense summary with entry id ${document.entryId} on the active branch of ${document.sessionPath}.`).value;
		}
		const chain = state.chains.find((candidate) => candidate.entry.blockId === document.blockId);
		return (chain
			? md`# ${chain.entry.blockId}: compressed chain\n\nRefs: ${chain.entry.toolRefs.join(', ') || 'none'}\n\n${inertMarkdown(chain.bodyText)}`
			: md`No compressed chain ${document.blockId} on the active branch of ${document.sessionPath}.`).value;
	}

	private refreshSession(path: string | undefined): void {
		for (const document of vscode.workspace.textDocuments) {
			const session = sessionOfPruneUri(document.uri);
			if (session !== undefined && (path === undefined || session === path)) {
				this._onDidChange.fire(document.uri);
			}
		}
	}
}

/**
 * Read-only documents with the raw outputs a compressed block `bN` dropped, opened when a `bN` ref
 * is clicked in the preview. The text is what the recovery command gives for those tool calls
 * (`SessionFeed.recover`); a single `tN` opens through the source's own recovery document.
 */
import * as vscode from 'vscode';

const BLOCK_SCHEME = 'pi-condense-block';

export class BlockDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
	private readonly texts = new Map<string, string>();
	private readonly changed = new vscode.EventEmitter<vscode.Uri>();
	private readonly registration = vscode.workspace.registerTextDocumentContentProvider(BLOCK_SCHEME, this);
	readonly onDidChange = this.changed.event;

	provideTextDocumentContent(uri: vscode.Uri): string {
		return this.texts.get(uri.toString()) ?? '(this block is no longer in the preview)';
	}

	async open(sessionPath: string, blockId: string, text: string): Promise<void> {
		const uri = vscode.Uri.from({ scheme: BLOCK_SCHEME, path: `/${blockId}.md`, query: new URLSearchParams({ session: sessionPath }).toString() });
		this.texts.set(uri.toString(), text);
		this.changed.fire(uri);
		const document = await vscode.workspace.openTextDocument(uri);
		await vscode.window.showTextDocument(await vscode.languages.setTextDocumentLanguage(document, 'markdown'), { preview: true });
	}

	dispose(): void {
		this.registration.dispose();
		this.changed.dispose();
		this.texts.clear();
	}
}

/**
 * One context preview panel: the webview's HTML with its CSP and nonce, local resource roots, and
 * the wiring of the webview's messages and the session's changes to the protocol host.
 */
import * as vscode from 'vscode';
import type { RenderReport } from '../../shared/protocol';
import type { BlockDocuments } from './blockDocuments';
import { createNonce } from './createNonce';
import { PreviewHost } from './previewHost';
import { previewHtml } from './previewHtml';
import type { PreviewSource } from './previewSource';

export interface PreviewPanelOptions {
	readonly source: PreviewSource;
	readonly extensionUri: vscode.Uri;
	readonly blockDocuments: BlockDocuments;
	readonly onReport: (report: RenderReport) => void;
	readonly log: (message: string) => void;
	readonly debug: (message: string) => void;
}

/** The folders the page may load from: its bundle and the extension's media. */
export function previewResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
	return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export class PreviewPanel implements vscode.Disposable {
	private readonly host: PreviewHost;
	private readonly disposables: vscode.Disposable[] = [];
	private disposed = false;
	private readonly _onDidDispose = new vscode.EventEmitter<void>();
	readonly onDidDispose = this._onDidDispose.event;

	constructor(readonly panel: vscode.WebviewPanel, options: PreviewPanelOptions) {
		const webview = panel.webview;
		webview.options = { enableScripts: true, localResourceRoots: previewResourceRoots(options.extensionUri) };
		const asset = (name: string): string => webview.asWebviewUri(vscode.Uri.joinPath(options.extensionUri, 'dist', 'webview', name)).toString();
		this.host = new PreviewHost({
			source: options.source,
			post: (message) => this.disposed ? Promise.resolve(false) : Promise.resolve(webview.postMessage(message)),
			openBlock: (sessionPath, blockId, text) => options.blockDocuments.open(sessionPath, blockId, text),
			notify: (message) => void vscode.window.showInformationMessage(`Pi Condense: ${message}`),
			setTitle: (title) => {
				if (!this.disposed) {
					panel.title = title;
				}
			},
			onReport: options.onReport,
			log: options.log,
			debug: options.debug,
		});
		webview.html = previewHtml({ cspSource: webview.cspSource, nonce: createNonce(), scriptUri: asset('main.js'), styleUri: asset('main.css') });
		this.disposables.push(
			// Typed `unknown` on purpose: the host checks each message before acting on it.
			webview.onDidReceiveMessage((message: unknown) => void this.host.handle(message)),
			options.source.onDidChangeSession(() => void this.host.refresh('session')),
			panel.onDidChangeViewState(({ webviewPanel }) => {
				if (!webviewPanel.visible) {
					this.host.pageUnloaded();
				}
			}),
			panel.onDidDispose(() => this.dispose()),
		);
	}

	/** Brings the panel forward on the row of a tool call, ref, block or entry. */
	reveal(target: string): Promise<void> {
		this.panel.reveal(undefined, false);
		return this.host.reveal(target);
	}

	dispose(): void {
		if (this.disposed) {
			return;
		}
		this.disposed = true;
		this._onDidDispose.fire();
		this._onDidDispose.dispose();
		for (const disposable of this.disposables.splice(0).reverse()) {
			disposable.dispose();
		}
		this.panel.dispose();
	}
}

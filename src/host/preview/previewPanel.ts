/**
 * One context preview panel: the webview's HTML with its CSP and nonce, local resource roots, and
 * the wiring of the webview's messages and the session's changes to the protocol host.
 */
import * as vscode from 'vscode';
import type { RenderReport } from '../../shared/protocol';
import { Disposable } from '../dispose';
import type { BlockDocuments } from './blockDocuments';
import { createNonce } from './createNonce';
import { PageHost } from './pageHost';
import { previewHtml } from './previewHtml';
import type { SessionFeed } from './sessionFeed';
import { showInfo } from '../ui/safeUi';
import type { WorkScope } from '../../work';

export interface PreviewPanelOptions {
	/** The page's own scope: closed with the panel, which stops what it computes. */
	readonly work: WorkScope;
	readonly source: SessionFeed;
	readonly extensionUri: vscode.Uri;
	readonly blockDocuments: BlockDocuments;
	/** Test runs: the page reports what it rendered to `onReport`. */
	readonly reportRenders: boolean;
	readonly onReport: (report: RenderReport) => void;
	readonly log: (message: string) => void;
	readonly debug: (message: string) => void;
}

/** The folders the page may load from: its bundle and the extension's media. */
export function previewResourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
	return [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')];
}

export class PreviewPanel extends Disposable {
	private readonly host: PageHost;
	private readonly work: WorkScope;
	private readonly _onDidDispose = new vscode.EventEmitter<void>();
	readonly onDidDispose = this._onDidDispose.event;

	constructor(readonly panel: vscode.WebviewPanel, options: PreviewPanelOptions) {
		super();
		this.work = options.work;
		const webview = panel.webview;
		webview.options = { enableScripts: true, localResourceRoots: previewResourceRoots(options.extensionUri) };
		const asset = (name: string): string => webview.asWebviewUri(vscode.Uri.joinPath(options.extensionUri, 'dist', 'webview', name)).toString();
		this.host = new PageHost({
			work: options.work,
			source: options.source,
			post: (message) => this.isDisposed ? Promise.resolve(false) : Promise.resolve(webview.postMessage(message)),
			openBlock: (sessionPath, blockId, text) => options.blockDocuments.open(sessionPath, blockId, text),
			notify: (message) => void showInfo(`Pi Condense: ${message}`),
			setTitle: (title) => {
				if (!this.isDisposed) {
					panel.title = title;
				}
			},
			reportRenders: options.reportRenders,
			onReport: options.onReport,
			log: options.log,
			debug: options.debug,
		});
		webview.html = previewHtml({ cspSource: webview.cspSource, nonce: createNonce(), scriptUri: asset('main.js'), styleUri: asset('main.css') });
		// Typed `unknown` on purpose: the host checks each message before acting on it.
		this._register(webview.onDidReceiveMessage((message: unknown) => void this.host.handle(message)));
		this._register(options.source.onDidChangeSession(() => void this.host.refresh('session')));
		if (options.source.onDidChangeLastSent) {
			this._register(options.source.onDidChangeLastSent(() => void this.host.postLastSent()));
		}
		this._register(panel.onDidChangeViewState(({ webviewPanel }) => {
			if (!webviewPanel.visible) {
				this.host.pageUnloaded();
			}
		}));
		this._register(panel.onDidDispose(() => this.dispose()));
	}

	/** Brings the panel forward on the row of a tool call, ref, block or entry. */
	reveal(target: string): Promise<void> {
		this.panel.reveal(undefined, false);
		return this.host.reveal(target);
	}

	override dispose(): void {
		if (this.isDisposed) {
			return;
		}
		super.dispose();
		void this.work.close();
		this._onDidDispose.fire();
		this._onDidDispose.dispose();
		this.panel.dispose();
	}
}

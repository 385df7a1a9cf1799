/**
 * The context preview feature: one panel at a time (opened, revealed, or restored after a reload
 * through the webview serializer), the commands that open it and jump to a message, and, in test
 * runs only, the page's render reports (the integration tests read them).
 */
import * as vscode from 'vscode';
import { PREVIEW_VIEW_TYPE, type RenderReport } from '../../shared/protocol';
import { CommandId } from '../commandIds';
import { Disposable } from '../dispose';
import { BlockDocuments } from './blockDocuments';
import { PreviewPanel, previewResourceRoots } from './previewPanel';
import type { SessionFeed } from './sessionFeed';
import { revealTarget } from './revealTarget';
import { registerCommand, showInputBox } from '../ui/safeUi';
import type { WorkScope } from '../../work';

export interface ContextPreviewOptions {
	/** The preview's scope: each panel's page runs under a child of it. */
	readonly work: WorkScope;
	readonly source: SessionFeed;
	readonly extensionUri: vscode.Uri;
	/** Test runs (`ExtensionMode.Test`): the page reports each render to `onDidReportRender`. */
	readonly reportRenders?: boolean;
	readonly log?: (message: string) => void;
	/** Messages of the page that are not part of the protocol, ignored. */
	readonly debug?: (message: string) => void;
}

export class ContextPreview extends Disposable {
	private panel: PreviewPanel | undefined;
	private readonly blockDocuments = this._register(new BlockDocuments());
	private readonly _onDidReportRender = this._register(new vscode.EventEmitter<RenderReport>());
	/** Fires with what the page says it rendered (test runs only). */
	readonly onDidReportRender = this._onDidReportRender.event;

	constructor(private readonly options: ContextPreviewOptions) {
		super();
		// From a tree item or a hover link the command carries the ref to show.
		this._register(registerCommand(CommandId.OpenPreview, (argument?: unknown) => {
			const target = revealTarget(argument);
			return target === undefined ? void this.show(keepsFocus(argument)) : this.reveal(target);
		}));
		this._register(registerCommand(CommandId.RevealInPreview, (target?: unknown) => this.revealCommand(target)));
		this._register(vscode.window.registerWebviewPanelSerializer(PREVIEW_VIEW_TYPE, {
			deserializeWebviewPanel: (panel: vscode.WebviewPanel) => {
				this.adopt(panel);
				return Promise.resolve();
			},
		}));
	}

	/** The open panel's webview panel, if any. */
	get webviewPanel(): vscode.WebviewPanel | undefined {
		return this.panel?.panel;
	}

	/** Opens the panel, or brings it forward; `preserveFocus` leaves the keyboard where it is (a click in Pi Sessions). */
	show(preserveFocus = false): PreviewPanel {
		if (this.panel) {
			this.panel.panel.reveal(undefined, preserveFocus);
			return this.panel;
		}
		const panel = vscode.window.createWebviewPanel(PREVIEW_VIEW_TYPE, 'Context Preview', { viewColumn: vscode.ViewColumn.Active, preserveFocus }, {
			enableScripts: true,
			retainContextWhenHidden: false,
			localResourceRoots: previewResourceRoots(this.options.extensionUri),
		});
		return this.adopt(panel);
	}

	/** Opens the preview on the message of a tool-call id, `tN` ref, `bN` block or entry id. */
	reveal(target: string): Promise<void> {
		return this.show().reveal(target);
	}

	private async revealCommand(argument: unknown): Promise<void> {
		const target = revealTarget(argument) ?? revealTarget(await showInputBox({
			title: 'Reveal in Context Preview',
			prompt: 'A ref (t12, b3), a tool-call id or a session entry id',
		}));
		if (target !== undefined) {
			await this.reveal(target);
		}
	}

	private adopt(webviewPanel: vscode.WebviewPanel): PreviewPanel {
		this.panel?.dispose();
		webviewPanel.iconPath = vscode.Uri.joinPath(this.options.extensionUri, 'media', 'pi-condense.svg');
		const panel = new PreviewPanel(webviewPanel, {
			work: this.options.work.child('panel'),
			source: this.options.source,
			extensionUri: this.options.extensionUri,
			blockDocuments: this.blockDocuments,
			reportRenders: this.options.reportRenders ?? false,
			onReport: (report) => this._onDidReportRender.fire(report),
			log: this.options.log ?? (() => undefined),
			debug: this.options.debug ?? (() => undefined),
		});
		panel.onDidDispose(() => {
			if (this.panel === panel) {
				this.panel = undefined;
			}
		});
		this.panel = panel;
		return panel;
	}

	override dispose(): void {
		this.panel?.dispose();
		super.dispose();
	}
}

/** `{ preserveFocus: true }`: how a session row's click opens the preview without taking the keyboard from the tree. */
function keepsFocus(argument: unknown): boolean {
	return typeof argument === 'object' && argument !== null && (argument as { preserveFocus?: unknown }).preserveFocus === true;
}

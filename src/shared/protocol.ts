/**
 * The typed message protocol between the extension host and the context preview webview.
 * Shared by `src/host` and `webview/`: types only, no vscode, no DOM, no Node.
 */

/** Messages the host posts to the webview. */
export type ToWebview =
	| { readonly type: 'init'; readonly sessionPath: string };

/** Messages the webview posts to the host. The host posts nothing before `ready`. */
export type FromWebview =
	| { readonly type: 'ready' };

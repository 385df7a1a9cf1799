/**
 * The preview page's HTML and its Content Security Policy. No `vscode` import, so the webview test
 * serves exactly this page outside VS Code.
 *
 * The policy allows nothing by default: scripts only with this load's nonce (no inline script, no
 * `eval`), styles and fonts only from the extension's own files (no inline style), images only from
 * the extension (session images are never shown), no base URI and no form targets.
 */

export interface PreviewHtmlOptions {
	/** `webview.cspSource`: the origin the extension's files are served from. */
	readonly cspSource: string;
	/** A fresh random nonce per load (`createNonce`). */
	readonly nonce: string;
	/** `dist/webview/main.js` and `dist/webview/main.css` as webview URIs. */
	readonly scriptUri: string;
	readonly styleUri: string;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
	return [
		"default-src 'none'",
		`style-src ${cspSource}`,
		`font-src ${cspSource}`,
		`img-src ${cspSource}`,
		`script-src 'nonce-${nonce}'`,
		"base-uri 'none'",
		"form-action 'none'",
	].join('; ');
}

export function previewHtml(options: PreviewHtmlOptions): string {
	const csp = escapeAttribute(contentSecurityPolicy(options.cspSource, options.nonce));
	// The stylesheet carries the codicon font too; @vscode-elements finds it by this id.
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" id="vscode-codicon-stylesheet" href="${escapeAttribute(options.styleUri)}">
<title>Context Preview</title>
</head>
<body>
<div id="app" class="app" aria-busy="true">${SKELETON}</div>
<script nonce="${escapeAttribute(options.nonce)}" src="${escapeAttribute(options.scriptUri)}"></script>
</body>
</html>
`;
}

/**
 * What the panel shows from its first paint, before its script has run or the host has computed
 * anything: the page's own layout in grey (a header, the toolbar, message rows, the side column),
 * styled by the stylesheet the head loads. The script keeps it until the first snapshot arrives.
 */
export const SKELETON = `<div class="skeleton" data-skeleton="page">
<header class="top"><div class="title-line"><span class="codicon codicon-eye" aria-hidden="true"></span><h1 class="title">Context preview</h1><span class="status">Loading the context the model is sent…</span></div>
<div class="skeleton-bar wide"></div><div class="skeleton-bar"></div></header>
<main class="content"><div class="list-column skeleton-rows" aria-hidden="true">${'<div class="skeleton-row"><div class="skeleton-bar short"></div><div class="skeleton-bar"></div><div class="skeleton-bar wide"></div></div>'.repeat(6)}</div>
<aside class="side" aria-hidden="true"><div class="skeleton-bar"></div><div class="skeleton-bar wide"></div><div class="skeleton-bar short"></div></aside></main>
</div>`;

function escapeAttribute(value: string): string {
	return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

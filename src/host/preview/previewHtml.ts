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
<div id="app" class="app" aria-busy="true"><p class="loading">Loading the context preview…</p></div>
<script nonce="${escapeAttribute(options.nonce)}" src="${escapeAttribute(options.scriptUri)}"></script>
</body>
</html>
`;
}

function escapeAttribute(value: string): string {
	return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

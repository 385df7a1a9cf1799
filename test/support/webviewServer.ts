/**
 * What the page tests serve the preview page with: exactly the panel's HTML (same CSP, a fresh
 * nonce per load) and the real bundle from dist/webview on a loopback HTTP server, and the stand-in
 * for VS Code's webview API that runs before the page's own script.
 */
import { readFile } from 'node:fs/promises';
import type { Server, ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { createNonce } from '../../src/host/preview/createNonce';
import { previewHtml } from '../../src/host/preview/previewHtml';
import { repoRoot } from './paths';

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.map': 'application/json' };

/** Closes the server and the connections still open to it (a keep-alive socket would hold it open). */
export function closeServer(server: Server): Promise<void> {
	server.closeAllConnections();
	return new Promise((resolve) => server.close(() => resolve()));
}


export async function serve(url: string, origin: string, response: ServerResponse): Promise<void> {
	const path = new URL(url, origin).pathname;
	if (path === '/') {
		const html = previewHtml({ cspSource: origin, nonce: createNonce(), scriptUri: `${origin}/dist/webview/main.js`, styleUri: `${origin}/dist/webview/main.css` });
		response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
		return;
	}
	const file = normalize(join(repoRoot, path));
	if (!path.startsWith('/dist/webview/') || !file.startsWith(join(repoRoot, 'dist', 'webview'))) {
		response.writeHead(404).end();
		return;
	}
	try {
		response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(await readFile(file));
	} catch {
		response.writeHead(404).end();
	}
}

/**
 * Runs in the page before its own script: VS Code's webview API (messages go to the test host, the
 * state is kept as VS Code keeps it), the theme's variables, and a log of CSP violations. A string,
 * because the tests are compiled without the DOM library.
 */
export function fakeWebviewApi(variables: Record<string, string>, savedState: unknown): string {
	return `(() => {
	const variables = ${JSON.stringify(variables)};
	let state = ${JSON.stringify(savedState ?? null)} ?? undefined;
	window.__cspViolations = [];
	document.addEventListener('securitypolicyviolation', (event) => {
		window.__cspViolations.push({ directive: event.violatedDirective, blocked: event.blockedURI, sample: event.sample });
	});
	window.acquireVsCodeApi = () => ({
		postMessage: (message) => window.__piPreviewToHost(message),
		getState: () => state,
		setState: (next) => { state = next; window.__savedState = next; },
	});
	const apply = () => { for (const [name, value] of Object.entries(variables)) { document.documentElement.style.setProperty(name, value); } };
	if (document.documentElement) { apply(); } else { document.addEventListener('DOMContentLoaded', apply); }
})();`;
}

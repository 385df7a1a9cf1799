import assert from 'node:assert/strict';
import { createNonce } from '../../../../src/host/preview/createNonce';
import { contentSecurityPolicy, previewHtml } from '../../../../src/host/preview/previewHtml';

describe('the preview page\'s HTML and CSP', () => {
	it('allows nothing by default, scripts only with the nonce, styles and fonts only from the extension', () => {
		assert.equal(
			contentSecurityPolicy('https://ext.example', 'abc'),
			"default-src 'none'; style-src https://ext.example; font-src https://ext.example; img-src https://ext.example; script-src 'nonce-abc'; base-uri 'none'; form-action 'none'",
		);
	});

	it('loads one script with the nonce and one stylesheet, and no inline script or style', () => {
		const html = previewHtml({ cspSource: 'https://ext.example', nonce: 'n0nce+/=', scriptUri: 'https://ext.example/dist/webview/main.js', styleUri: 'https://ext.example/dist/webview/main.css' });
		assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; [^"]*script-src 'nonce-n0nce\+\/='/);
		assert.deepEqual([...html.matchAll(/<script[^>]*>/g)].map((m) => m[0]), ['<script nonce="n0nce+/=" src="https://ext.example/dist/webview/main.js">']);
		assert.equal([...html.matchAll(/<style/g)].length, 0);
		assert.equal([...html.matchAll(/ style=/g)].length, 0);
		assert.match(html, /<link rel="stylesheet" id="vscode-codicon-stylesheet" href="https:\/\/ext\.example\/dist\/webview\/main\.css">/);
	});

	it('escapes what it puts in attributes', () => {
		const html = previewHtml({ cspSource: 'x', nonce: 'a"b', scriptUri: 'u"><script>', styleUri: 's' });
		assert.ok(!html.includes('u"><script>'));
		assert.ok(html.includes('nonce="a&quot;b"'));
	});

	it('makes a fresh 128-bit nonce each time', () => {
		const nonces = new Set(Array.from({ length: 50 }, createNonce));
		assert.equal(nonces.size, 50);
		for (const nonce of nonces) {
			assert.equal(Buffer.from(nonce, 'base64').length, 16);
		}
	});
});

/**
 * Session text is hostile: tool outputs, arguments and summaries routinely hold HTML and scripts.
 * The real preview bundle renders a session carrying 40 injection payloads in every place session
 * text reaches the page (in both views, expanded, as exact text, in hovers and search highlights);
 * none runs, none leaves an active element behind, and the CSP blocks inline script and style.
 *
 * (Chromium reports `script-src-attr` violations while DOMPurify parses hostile markdown in its
 * inert DOMParser document: the handlers are refused before the sanitizer removes them.)
 */
import assert from 'node:assert/strict';
import { referenceAgentDir, type ReferenceAgentDir } from '../support/referenceAgentDir';
import { SessionFileSource } from '../support/sessionFileSource';
import { WebviewPage } from '../support/webviewPage';
import { XSS_PAYLOADS } from '../support/xssPayloads';
import { writeXssSession } from '../support/xssSession';
import { LATEST } from '../support/releases';

const FORBIDDEN = 'script, iframe, object, embed, img, svg, math, style, link, meta, form, base, input, video, audio, source, template, noscript, marquee, select, textarea, button:not(.row-button):not(.link-button), x, body body';

describe('the preview page against script injection in session text', function () {
	this.timeout(180_000);
	let dir: ReferenceAgentDir;
	let page: WebviewPage;
	const ran: string[] = [];

	before(async () => {
		dir = referenceAgentDir('basic');
		writeXssSession(dir.sessionFile);
		const source = new SessionFileSource(dir.sessionFile, dir.agentDir, LATEST);
		await source.reload();
		page = await WebviewPage.open(source, { sentinel: (id) => ran.push(id), viewport: { width: 1280, height: 900 } });
		await page.waitForReport((r) => r.cause === 'snapshot');
	});

	after(async () => {
		await page?.close();
		dir?.cleanup();
	});

	it('has at least 30 payloads, and the page shows them as text', async () => {
		assert.ok(XSS_PAYLOADS.length >= 30);
		const scrolled = page.nextReport((r) => r.cause === 'scroll');
		await page.page.locator('.list-scroller').evaluate((node) => {
			const el = node as unknown as { scrollTop: number; scrollHeight: number };
			el.scrollTop = el.scrollHeight;
		});
		await scrolled;
		const text = await page.page.locator('#app').innerText();
		assert.ok(text.includes('<textarea autofocus onfocus="__xssSentinel(\'x38\');window.__pwned=1"></textarea>'), 'tags and handlers are shown literally');
		assert.ok(text.includes('tool<img src=x onerror=__xssSentinel(\'name-x40\')>'), 'a tool name is shown literally');
	});

	it('runs none of them anywhere session text is rendered', async () => {
		for (const view of ['after', 'before'] as const) {
			const switched = page.nextReport((r) => r.view === view && (r.cause === 'view' || r.cause === 'snapshot'), 30_000);
			await page.page.click(`vscode-button[data-control="view-${view}"]`);
			if (view === 'before') {
				await switched;
			}
			await page.page.locator('.list-scroller').evaluate((node) => {
				(node as unknown as { scrollTop: number }).scrollTop = 0;
			});
			await exerciseEveryRow(page);
		}
		const searched = page.nextReport((r) => r.cause === 'search' || r.cause === 'expand');
		await page.page.locator('vscode-textfield[data-control="search"] input').fill('<script>');
		await searched;
		await page.page.waitForTimeout(1000);
		const sent = (type: string): number => page.fromPage.filter((m) => m.type === type).length;
		assert.ok(sent('expandRow') > 0 && sent('recover') > 0 && sent('openRef') > 0, 'rows were expanded, refs hovered and clicked');
		assert.deepEqual(ran, [], 'no payload called the sentinel');
		assert.equal(await page.page.evaluate(() => (globalThis as unknown as { __pwned?: unknown }).__pwned), undefined);
		assert.deepEqual(page.pageErrors, []);
	});

	it('leaves no active element, handler, inline style or script URL in the page', async () => {
		const found = await page.page.evaluate((forbidden) => {
			const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ tagName: string; getAttributeNames(): string[]; getAttribute(n: string): string | null; className: string }> } }).document;
			const inApp = (selector: string) => Array.from(doc.querySelectorAll(`#app :is(${selector}), .ref-tooltip :is(${selector})`));
			const all = inApp('*');
			return {
				forbidden: inApp(forbidden).map((node) => node.tagName),
				handlers: all.flatMap((node) => node.getAttributeNames().filter((name) => name.startsWith('on')).map((name) => `${node.tagName}[${name}]`)),
				styled: all.filter((node) => node.getAttribute('style') !== null && !/\b(row|list-inner|bar-fill|ref-tooltip)\b/.test(node.className)).map((node) => node.tagName),
				links: inApp('a[href]').map((node) => node.getAttribute('href')).filter((href) => !/^https?:\/\//i.test(href ?? '')),
			};
		}, FORBIDDEN);
		assert.deepEqual(found, { forbidden: [], handlers: [], styled: [], links: [] });
	});

	it('is protected by its CSP: inline script and inline style are refused', async () => {
		// The sentinel itself works: a call from the page is recorded.
		await page.page.evaluate(() => (globalThis as unknown as { __xssSentinel(id: string): Promise<void> }).__xssSentinel('control'));
		assert.deepEqual(ran.splice(0), ['control']);
		const before = (await page.violations()).length;
		await page.page.evaluate(() => {
			const doc = (globalThis as unknown as { document: { createElement(t: string): { textContent: string; setAttribute(n: string, v: string): void }; body: { appendChild(n: unknown): void } } }).document;
			const script = doc.createElement('script');
			script.textContent = "__xssSentinel('inline-script')";
			doc.body.appendChild(script);
			const div = doc.createElement('div');
			div.setAttribute('style', 'background:red');
			doc.body.appendChild(div);
		});
		await page.page.waitForTimeout(300);
		const violations = (await page.violations()).slice(before).map((v) => v.directive);
		assert.ok(violations.includes('script-src-elem'), `inline script refused (${violations.join(', ')})`);
		assert.ok(violations.includes('style-src-attr'), `inline style refused (${violations.join(', ')})`);
		assert.deepEqual(ran, []);
	});
});

/**
 * Scrolls through the whole list. On each screen: expands every row, switches markdown to its
 * exact text, opens every details element, fires mouse and focus events at every element of the
 * rows (so any surviving inline handler would run), and hovers a ref for its recovered output.
 */
async function exerciseEveryRow(page: WebviewPage): Promise<void> {
	for (let step = 0; step < 500; step++) {
		await page.page.evaluate(() => {
			type Node = { click(): void; dispatchEvent(e: unknown): void; open?: boolean };
			const g = globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<Node> }; MouseEvent: new (t: string, i: object) => unknown; FocusEvent: new (t: string, i: object) => unknown };
			for (const button of Array.from(g.document.querySelectorAll('.row [data-action="expand"], .row [data-action="raw"]'))) {
				button.click();
			}
			for (const details of Array.from(g.document.querySelectorAll('.row details'))) {
				details.open = true;
			}
			for (const node of Array.from(g.document.querySelectorAll('.row-body *, .stub-origin pre *'))) {
				for (const type of ['mouseover', 'mouseenter', 'pointerenter', 'click']) {
					node.dispatchEvent(new g.MouseEvent(type, { bubbles: true }));
				}
				node.dispatchEvent(new g.FocusEvent('focus', {}));
			}
		});
		await page.page.waitForTimeout(150);
		// A ref inside the viewport (hovering one outside would scroll the list back to it).
		const visible = await page.page.evaluate(() => {
			type Box = { top: number; bottom: number };
			const g = globalThis as unknown as { document: { querySelector(s: string): { getBoundingClientRect(): Box } | null; querySelectorAll(s: string): ArrayLike<{ getBoundingClientRect(): Box; setAttribute(n: string, v: string): void; removeAttribute(n: string): void }> } };
			const view = g.document.querySelector('.list-scroller')?.getBoundingClientRect();
			let found = false;
			for (const ref of Array.from(g.document.querySelectorAll('.row .ref'))) {
				ref.removeAttribute('data-test-hover');
				const box = ref.getBoundingClientRect();
				if (!found && view && box.top >= view.top && box.bottom <= view.bottom) {
					ref.setAttribute('data-test-hover', '');
					found = true;
				}
			}
			return found;
		});
		const ref = page.page.locator('.row .ref[data-test-hover]');
		if (visible) {
			await ref.hover({ timeout: 1000 }).catch(() => undefined);
			await page.page.waitForTimeout(350);
		}
		const done = await page.page.locator('.list-scroller').evaluate((node) => {
			const el = node as unknown as { scrollTop: number; clientHeight: number; scrollHeight: number };
			const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
			el.scrollTop += el.clientHeight * 0.8;
			return atEnd;
		});
		if (done) {
			return;
		}
		await page.page.waitForTimeout(50);
	}
	throw new Error('never reached the end of the list');
}

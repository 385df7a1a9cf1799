/**
 * Session text is hostile: tool outputs, arguments and summaries routinely hold HTML and scripts.
 * The real preview bundle renders a session carrying 40 injection payloads in every place session
 * text reaches the page (in both views, expanded, as exact text, in hovers and search highlights);
 * none runs, none leaves an active element behind, and the CSP blocks inline script and style.
 * A second session carries 30 summaries that try to put a link into the page (every scheme,
 * autolinks, reference-style links, HTML anchors, images, encoded schemes): none becomes anything
 * that opens, and every target is shown as text.
 *
 * (Chromium reports `script-src-attr` violations while DOMPurify parses hostile markdown in its
 * inert DOMParser document: the handlers are refused before the sanitizer removes them.)
 */
import assert from 'node:assert/strict';
import { referenceAgentDir, type ReferenceAgentDir } from '../support/referenceAgentDir';
import { SessionFileSource } from '../support/sessionFileSource';
import { WebviewPage, type CspViolation } from '../support/webviewPage';
import { LINK_PAYLOADS } from '../support/linkPayloads';
import { XSS_PAYLOADS, type XssPayload } from '../support/xssPayloads';
import { writeXssSession } from '../support/xssSession';
import { LATEST } from '../support/releases';

/** The page on a session carrying `payloads` everywhere session text goes; `ran` gets the id of any that runs. */
async function openHostileSession(payloads: readonly XssPayload[], ran: string[]): Promise<{ dir: ReferenceAgentDir; page: WebviewPage }> {
	const dir = referenceAgentDir('basic');
	writeXssSession(dir.sessionFile, payloads);
	const source = new SessionFileSource(dir.sessionFile, dir.agentDir, LATEST);
	await source.reload();
	const page = await WebviewPage.open(source, { sentinel: (id) => ran.push(id), viewport: { width: 1280, height: 900 } });
	await page.waitForReport((r) => r.cause === 'snapshot');
	return { dir, page };
}

const FORBIDDEN = 'script, iframe, object, embed, img, svg, math, style, link, meta, form, base, input, video, audio, source, template, noscript, marquee, select, textarea, button:not(.row-button):not(.link-button), x, body body';

describe('the preview page against script injection in session text', function () {
	this.timeout(180_000);
	let dir: ReferenceAgentDir;
	let page: WebviewPage;
	const ran: string[] = [];

	before(async () => {
		({ dir, page } = await openHostileSession(XSS_PAYLOADS, ran));
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
			// The page opens on the view after pruning: only the other one is a switch, reported when drawn.
			const switched = view === 'before' ? page.nextReport((r) => r.view === view && (r.cause === 'view' || r.cause === 'snapshot'), 30_000) : undefined;
			await page.page.click(`vscode-button[data-control="view-${view}"]`);
			await switched;
			await page.page.locator('.list-scroller').evaluate((node) => {
				(node as unknown as { scrollTop: number }).scrollTop = 0;
			});
			await exerciseEveryRow(page);
		}
		const searched = page.nextReport((r) => r.cause === 'search' || r.cause === 'expand');
		await page.page.locator('vscode-textfield[data-control="search"] input').fill('<script>');
		await searched;
		await afterEverything(page);
		const sent = (type: string): number => page.fromPage.filter((m) => m.type === type).length;
		assert.ok(sent('expandRow') > 0 && sent('recover') > 0 && sent('openRef') > 0, 'rows were expanded, refs hovered and clicked');
		assert.deepEqual(ran.splice(0), [AFTER_EVERYTHING], 'no payload called the sentinel');
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
				links: inApp('a, area, [href]').map((node) => node.tagName),
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
		// Chromium reports each refusal in a task of its own: wait for both (a refusal that never comes fails by the test's timeout).
		await page.page.waitForFunction((count) => {
			const seen = (globalThis as unknown as { __cspViolations: CspViolation[] }).__cspViolations.slice(count).map((v) => v.directive);
			return seen.includes('script-src-elem') && seen.includes('style-src-attr');
		}, before);
		const violations = (await page.violations()).slice(before).map((v) => v.directive);
		assert.ok(violations.includes('script-src-elem'), `inline script refused (${violations.join(', ')})`);
		assert.ok(violations.includes('style-src-attr'), `inline style refused (${violations.join(', ')})`);
		await afterEverything(page);
		assert.deepEqual(ran.splice(0), [AFTER_EVERYTHING]);
	});
});

/** Anything in the page that could open a link, load a resource or submit (our own page has none in the rows). */
const OPENERS = 'a, area, form, img, image, iframe, embed, object, link, base, [href], [src], [srcset], [action], [formaction], [poster], [background], [data]';

describe('the preview page against links in session text', function () {
	this.timeout(180_000);
	let dir: ReferenceAgentDir;
	let page: WebviewPage;
	const ran: string[] = [];
	const left: string[] = [];

	before(async () => {
		({ dir, page } = await openHostileSession(LINK_PAYLOADS, ran));
		// Whatever would leave the page: a navigation of it, a new window, a request elsewhere (refused, so a
		// surviving link fails the assertion below instead of taking the page away).
		page.page.on('framenavigated', (frame) => left.push(`navigated to ${frame.url()}`));
		page.page.on('popup', (popup) => left.push(`opened ${popup.url()}`));
		await page.page.route((url) => !url.href.startsWith(page.origin), (route) => {
			left.push(`requested ${route.request().url()}`);
			return route.abort();
		});
	});

	after(async () => {
		await page?.close();
		dir?.cleanup();
	});

	it('turns no summary into a link, whatever its scheme, and shows every target as text to copy', async () => {
		assert.ok(LINK_PAYLOADS.length >= 30);
		const texts: string[] = [];
		const openers: string[] = [];
		for (const view of ['after', 'before'] as const) {
			// The page opens on the view after pruning.
			if (view === 'before') {
				const switched = page.nextReport((r) => r.view === view && (r.cause === 'view' || r.cause === 'snapshot'), 30_000);
				await page.page.click(`vscode-button[data-control="view-${view}"]`);
				await switched;
			}
			await page.page.locator('.list-scroller').evaluate((node) => {
				(node as unknown as { scrollTop: number }).scrollTop = 0;
			});
			await walkRows(page, async () => {
				await expandRowsOnScreen(page);
				const screen = await page.page.evaluate((selector) => {
					type Node = { tagName: string; getAttributeNames(): string[]; dispatchEvent(e: unknown): void };
					const g = globalThis as unknown as { document: { querySelector(s: string): { innerText: string } | null; querySelectorAll(s: string): ArrayLike<Node> }; MouseEvent: new (t: string, i: object) => unknown };
					const openers = Array.from(g.document.querySelectorAll(`#app :is(${selector}), .ref-tooltip :is(${selector})`)).map((node) => `${node.tagName}[${node.getAttributeNames().join(',')}]`);
					// Then a click on everything a summary rendered: anything else that opened would navigate or open a
					// window. (Not when a link is there already: it would take the page away before the assertion.)
					for (const node of openers.length === 0 ? Array.from(g.document.querySelectorAll('.markdown *')) : []) {
						node.dispatchEvent(new g.MouseEvent('click', { bubbles: true, cancelable: true }));
					}
					return { text: g.document.querySelector('#app')?.innerText ?? '', openers };
				}, OPENERS);
				texts.push(screen.text);
				openers.push(...screen.openers);
			});
		}
		assert.deepEqual([...new Set(openers)], [], 'nothing that opens a link, loads or submits');
		await page.page.waitForTimeout(500);
		assert.deepEqual(left, [], 'the page never left, opened a window or asked another host');
		assert.deepEqual(ran, []);
		const text = texts.join('\n');
		const missing = LINK_PAYLOADS.flatMap((payload) => payload.shows.filter((shown) => !text.includes(shown)).map((shown) => `${payload.id}: ${shown}`));
		assert.deepEqual(missing, [], 'every label and target is on the page as text');
	});
});

const AFTER_EVERYTHING = 'after-everything';

/**
 * Lets whatever the page still had to run run (a frame, then a task), then calls the sentinel from the page:
 * page calls reach the test in order, so once this one is back, any payload's call would be in `ran` before it.
 */
async function afterEverything(page: WebviewPage): Promise<void> {
	await page.page.evaluate(async (marker) => {
		const g = globalThis as unknown as { requestAnimationFrame(cb: () => void): void; setTimeout(cb: () => void, ms: number): void; __xssSentinel(id: string): Promise<void> };
		await new Promise<void>((resolve) => g.requestAnimationFrame(() => g.setTimeout(resolve, 0)));
		await g.__xssSentinel(marker);
	}, AFTER_EVERYTHING);
}

/**
 * Scrolls through the whole list. On each screen: expands every row (and waits for its full text),
 * switches markdown to its exact text, opens every details element, fires mouse and focus events at
 * every element of the rows (so any surviving inline handler would run), and hovers a ref until its
 * recovered output is shown.
 */
async function exerciseEveryRow(page: WebviewPage): Promise<void> {
	await walkRows(page, async () => {
		await expandRowsOnScreen(page);
		await page.page.evaluate(() => {
			type Node = { click(): void; dispatchEvent(e: unknown): void; open?: boolean };
			const g = globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<Node> }; MouseEvent: new (t: string, i: object) => unknown; FocusEvent: new (t: string, i: object) => unknown };
			for (const button of Array.from(g.document.querySelectorAll('.row [data-action="raw"]'))) {
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
		await hoverOneRef(page);
	});
}

/** Expands the rows on screen and waits until their full text is there (each expansion is a round trip to the host). */
async function expandRowsOnScreen(page: WebviewPage): Promise<void> {
	for (let tries = 0; tries < 100; tries++) {
		const from = page.reports.length;
		const clicked = await page.page.evaluate(() => {
			const buttons = Array.from((globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ click(): void }> } }).document.querySelectorAll('.row [data-action="expand"]'));
			for (const button of buttons) {
				button.click();
			}
			return buttons.length;
		});
		if (clicked === 0) {
			return;
		}
		// The page reports each expansion it renders; then the screen is looked at again.
		await page.waitForReport((r) => r.cause === 'expand' && page.reports.indexOf(r) >= from);
	}
	throw new Error('rows on screen did not expand');
}

/** Runs `onScreen` on each screen of the list, from where it is scrolled to the end, once the screen's rows are there. */
async function walkRows(page: WebviewPage, onScreen: () => Promise<void>): Promise<void> {
	for (let step = 0; step < 500; step++) {
		await rowsOnScreen(page);
		await onScreen();
		const done = await page.page.locator('.list-scroller').evaluate((node) => {
			const el = node as unknown as { scrollTop: number; clientHeight: number; scrollHeight: number };
			const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
			el.scrollTop += el.clientHeight * 0.8;
			return atEnd;
		});
		if (done) {
			return;
		}
	}
	throw new Error('never reached the end of the list');
}

/** Waits until the page has drawn a frame since the last scroll and holds every row it shows (no placeholder left). */
async function rowsOnScreen(page: WebviewPage): Promise<void> {
	await page.page.evaluate(() => new Promise<void>((resolve) => {
		const g = globalThis as unknown as { requestAnimationFrame(cb: () => void): void };
		g.requestAnimationFrame(() => g.requestAnimationFrame(resolve));
	}));
	await page.page.waitForFunction(() => (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector('.row-placeholder') === null);
}

/** Hovers a ref inside the viewport (hovering one outside would scroll the list back to it). */
async function hoverOneRef(page: WebviewPage): Promise<void> {
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
	if (visible) {
		const ref = page.page.locator('.row .ref[data-test-hover]');
		const name = await ref.getAttribute('data-ref');
		// From outside the list, so that the hover is a move onto the ref even when the pointer was left over it.
		await page.page.mouse.move(0, 0);
		const hovered = await ref.hover({ timeout: 1000 }).then(() => true, () => false);
		if (hovered && name) {
			// Its tooltip, once the page's hover delay has passed, with the text the host recovered.
			await page.page.waitForFunction((wanted) => {
				type Node = { hidden: boolean; textContent: string | null; querySelector(s: string): Node | null };
				const tooltip = (globalThis as unknown as { document: { querySelector(s: string): Node | null } }).document.querySelector('.ref-tooltip');
				const title = tooltip?.querySelector('.tooltip-title')?.textContent ?? '';
				const text = tooltip?.querySelector('pre')?.textContent;
				return tooltip !== null && !tooltip.hidden && /^[ :·]/.test(title.slice(wanted.length)) && title.startsWith(wanted) && text !== 'Recovering…';
			}, name);
		}
	}
}

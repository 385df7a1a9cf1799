/**
 * The preview page outside VS Code, for the webview tests and the benchmark: a loopback HTTP
 * server serves exactly the panel's HTML (`previewHtml`, same CSP, a fresh nonce per load) and the
 * real bundle from dist/webview; Debian's headless Chromium (playwright-core, the harness's flags)
 * opens it. A stand-in for `acquireVsCodeApi` hands the page's messages to a `PageHost`, the
 * host's own protocol logic, so the page is fed through the same protocol as in VS Code.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { PageHost } from '../../src/host/preview/pageHost';
import type { SessionFeed } from '../../src/host/preview/sessionFeed';
import type { FromWebview, RenderReport, ToWebview } from '../../src/shared/protocol';
import { assertChromium, chromiumFlags, chromiumPath } from '../harness/chromium.mjs';
import { pinnedExecutable } from './cpuPinning';
import { themeVariables, type ThemeName } from './webviewThemes';
import { closeServer, fakeWebviewApi, serve } from './webviewServer';
import { testScope } from './testWork';


export interface CspViolation {
	readonly directive: string;
	readonly blocked: string;
	readonly sample: string;
}

/** One screen while scrolling: nodes in the document, rows in the DOM, ms until two frames later. */
export interface ScrollSample {
	readonly nodes: number;
	readonly rows: number[];
	readonly ms: number;
}

export interface PageOptions {
	readonly theme?: ThemeName;
	readonly viewport?: { readonly width: number; readonly height: number };
	/** Page state as VS Code would restore it (`getState`). */
	readonly savedState?: unknown;
	readonly now?: () => number;
	/** Called if any script injected by session text ever runs (`__xssSentinel(id)` in the page). */
	readonly sentinel?: (id: string) => void;
	/** CPUs for Chromium's processes (taskset's list syntax; see `cpuPinning.ts`). */
	readonly browserCpus?: string;
	/** Holds a message of the host until the promise it returns settles (the skeleton test holds the first snapshot). */
	readonly hold?: (message: ToWebview) => Promise<void> | undefined;
}

export class WebviewPage {
	readonly reports: RenderReport[] = [];
	readonly fromPage: FromWebview[] = [];
	/** Every message the host posted to the page. */
	readonly posted: ToWebview[] = [];
	readonly notices: string[] = [];
	readonly blocksOpened: string[] = [];
	readonly pageErrors: string[] = [];
	/** What the host logged at debug level. */
	readonly hostDebug: string[] = [];
	private waiters: { test: (r: RenderReport) => boolean; resolve: (r: RenderReport) => void }[] = [];
	private host!: PageHost;
	private sourceListener: { dispose(): void } | undefined;
	/** The page's scope, as a panel has one: closed with the page. */
	private readonly work = testScope('page');

	private constructor(readonly browser: Browser, readonly page: Page, private readonly server: Server, readonly origin: string) {}

	/** Serves the page and opens it in Chromium; if any step fails, what was opened is closed before the error is thrown. */
	static async open(source: SessionFeed, options: PageOptions = {}): Promise<WebviewPage> {
		const harness = await WebviewPage.launch(options);
		try {
			await harness.load(source, options);
			return harness;
		} catch (error) {
			await harness.close();
			throw error;
		}
	}

	/**
	 * Starts the server and Chromium with a blank page, not loaded yet (`load`): the bench times the
	 * page's open apart from the browser's start, which is not the host's work.
	 */
	static async launch(options: PageOptions = {}): Promise<WebviewPage> {
		assertChromium();
		const server = createServer((request, response) => void serve(request.url ?? '/', origin, response));
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		let browser: Browser | undefined;
		try {
			const { chromium } = await import('playwright-core');
			const executablePath = options.browserCpus === undefined ? chromiumPath() : pinnedExecutable(chromiumPath(), options.browserCpus);
			browser = await chromium.launch({ executablePath, headless: true, args: [...chromiumFlags] });
			const page = await browser.newPage({ viewport: options.viewport ?? { width: 1280, height: 800 } });
			return new WebviewPage(browser, page, server, origin);
		} catch (error) {
			await browser?.close();
			await closeServer(server);
			throw error;
		}
	}

	/** Connects the page to a `PageHost` over the fake webview API, then loads it. */
	async load(source: SessionFeed, options: PageOptions = {}): Promise<void> {
		const hold = options.hold;
		this.host = new PageHost({
			work: this.work,
			source,
			post: async (message) => {
				await hold?.(message);
				return this.send(message);
			},
			openBlock: (_path, blockId) => {
				this.blocksOpened.push(blockId);
				return Promise.resolve();
			},
			notify: (message) => this.notices.push(message),
			setTitle: () => undefined,
			// The page reports its renders only when asked, as in a test run of the extension.
			reportRenders: true,
			onReport: (report) => this.onReport(report),
			log: (message) => this.pageErrors.push(`host: ${message}`),
			debug: (message) => this.hostDebug.push(message),
			...(options.now ? { now: options.now } : {}),
		});
		this.sourceListener = source.onDidChangeSession(() => void this.host.refresh('session'));
		this.page.on('pageerror', (error) => this.pageErrors.push(error.message));
		await this.page.exposeBinding('__piPreviewToHost', (_source, message: FromWebview) => {
			this.fromPage.push(message);
			void this.host.handle(message);
		});
		if (options.sentinel) {
			const sentinel = options.sentinel;
			await this.page.exposeBinding('__xssSentinel', (_source, id: string) => sentinel(String(id)));
		}
		await this.page.addInitScript({ content: fakeWebviewApi(themeVariables(options.theme ?? 'dark'), options.savedState) });
		await this.page.goto(`${this.origin}/`);
	}

	/**
	 * What the host posts reaches the page as a window `message` event, as in a VS Code webview.
	 * Sent as one JSON string (VS Code serializes to JSON too): Playwright's own serialization of a
	 * large object tree would dominate the timings.
	 */
	async send(message: ToWebview): Promise<boolean> {
		this.posted.push(message);
		await this.page.evaluate((json) => (globalThis as unknown as { postMessage(d: unknown, origin: string): void }).postMessage(JSON.parse(json), '*'), JSON.stringify(message));
		return true;
	}

	reveal(target: string): Promise<void> {
		return this.host.reveal(target);
	}

	/** Resolves with the first render report (already received or coming) that passes the test. */
	waitForReport(test: (report: RenderReport) => boolean, timeoutMs = 20_000): Promise<RenderReport> {
		const seen = this.reports.find(test);
		if (seen) {
			return Promise.resolve(seen);
		}
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`no matching render report within ${timeoutMs} ms; last: ${JSON.stringify(this.reports.at(-1)?.cause)}; errors: ${this.pageErrors.join('; ')}`)), timeoutMs);
			this.waiters.push({ test, resolve: (report) => {
				clearTimeout(timer);
				resolve(report);
			} });
		});
	}

	/** The next report after this call that passes the test. */
	nextReport(test: (report: RenderReport) => boolean, timeoutMs = 20_000): Promise<RenderReport> {
		const after = this.reports.length;
		return this.waitForReport((report) => this.reports.indexOf(report) >= after && test(report), timeoutMs);
	}

	/** Jumps through the list in `steps` even steps to the end; after each jump waits two frames, then counts the DOM. */
	async scrollThrough(steps: number): Promise<ScrollSample[]> {
		const out: ScrollSample[] = [];
		for (let i = 0; i <= steps; i++) {
			out.push(await this.scrollSample({ fraction: i / steps }));
		}
		return out;
	}

	/** Scrolls down `px` at a time, `steps` times, from the top (as a mouse wheel would). */
	async scrollBy(px: number, steps: number): Promise<ScrollSample[]> {
		await this.scrollSample({ fraction: 0 });
		const out: ScrollSample[] = [];
		for (let i = 0; i < steps; i++) {
			out.push(await this.scrollSample({ by: px }));
		}
		return out;
	}

	private scrollSample(move: { fraction?: number; by?: number }): Promise<ScrollSample> {
		return this.page.evaluate(async ({ fraction, by }) => {
			type El = { scrollTop: number; scrollHeight: number; clientHeight: number; dataset: { index: string }; shadowRoot: unknown; firstChild: unknown; nextSibling: unknown };
			const g = globalThis as unknown as { document: { querySelector(s: string): El; querySelectorAll(s: string): ArrayLike<El>; documentElement: El }; requestAnimationFrame(cb: () => void): void; performance: { now(): number } };
			const scroller = g.document.querySelector('.list-scroller');
			const start = g.performance.now();
			scroller.scrollTop = by !== undefined ? scroller.scrollTop + by : (fraction ?? 0) * (scroller.scrollHeight - scroller.clientHeight);
			await new Promise<void>((resolve) => g.requestAnimationFrame(() => g.requestAnimationFrame(resolve)));
			const ms = g.performance.now() - start;
			let nodes = 0;
			const stack: unknown[] = [g.document.documentElement];
			while (stack.length > 0) {
				const node = stack.pop() as El;
				nodes++;
				if (node.shadowRoot) {
					stack.push(node.shadowRoot);
				}
				for (let child = node.firstChild as El | null; child; child = child.nextSibling as El | null) {
					stack.push(child);
				}
			}
			const rows = Array.from(g.document.querySelectorAll('.row')).map((row) => Number(row.dataset.index)).sort((a, b) => a - b);
			return { nodes, rows, ms };
		}, move);
	}

	/** Indexes of the rows in the DOM (placeholders of rows not arrived yet are not rows). */
	rowsInDom(): Promise<number[]> {
		return this.page.locator('.row').evaluateAll((nodes) => nodes.map((node) => Number((node as unknown as { dataset: { index: string } }).dataset.index)).sort((a, b) => a - b));
	}

	/** Polls the rows in the DOM until `test` holds; resolves with them. */
	async waitForRows(test: (rows: readonly number[]) => boolean, timeoutMs = 20_000): Promise<number[]> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const rows = await this.rowsInDom();
			if (test(rows)) {
				return rows;
			}
			if (Date.now() > deadline) {
				throw new Error(`the rows in the DOM never passed the test; last: ${rows.join(', ')}; errors: ${this.pageErrors.join('; ')}`);
			}
			await new Promise((resolve) => setTimeout(resolve, 25));
		}
	}

	/** Scrolls the list to a fraction of its height (0 the top, 1 the end). */
	async scrollTo(fraction: number): Promise<void> {
		await this.page.locator('.list-scroller').evaluate((node, at) => {
			const scroller = node as unknown as { scrollTop: number; scrollHeight: number; clientHeight: number };
			scroller.scrollTop = at * (scroller.scrollHeight - scroller.clientHeight);
		}, fraction);
	}

	violations(): Promise<CspViolation[]> {
		return this.page.evaluate(() => (globalThis as unknown as { __cspViolations: CspViolation[] }).__cspViolations);
	}

	async close(): Promise<void> {
		// The source may outlive the page (a bench opens one session in several pages).
		this.sourceListener?.dispose();
		await this.work.close();
		await this.browser.close();
		await closeServer(this.server);
	}

	private onReport(report: RenderReport): void {
		this.reports.push(report);
		for (const waiter of this.waiters.slice()) {
			if (waiter.test(report)) {
				this.waiters.splice(this.waiters.indexOf(waiter), 1);
				waiter.resolve(report);
			}
		}
	}
}

/** Polls `condition` until it holds. */
export async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) {
			throw new Error('timed out');
		}
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

/**
 * The preview page's steps as the bench drives them, each while the host's thread is watched: the
 * page opened in a fresh Chromium (several times, the median kept), a what-if typed in, the raw view
 * chosen. The page's host side (PageHost, its computations in slices) runs on this thread, so
 * the longest block watched is the host's.
 */
import { performance } from 'node:perf_hooks';
import type { RenderReport } from '../../src/shared/protocol';
import { watchThread, type ThreadFigures } from '../support/hostThreadWatch';
import type { SessionFileSource } from '../support/sessionFileSource';
import { WebviewPage, type PageOptions } from '../support/webviewPage';
import { ms } from './timing';

export interface OpenedPage {
	readonly page: WebviewPage;
	/** The last open's first painted snapshot. */
	readonly first: RenderReport;
	readonly opens: readonly ThreadFigures[];
}

/**
 * The page opened `count` times, each in a fresh Chromium (started before the watch: starting it is
 * no host work), watched from the load to the first painted snapshot. The last page stays open.
 */
export async function watchedOpens(name: string, source: SessionFileSource, options: PageOptions, count: number, profileDir?: string): Promise<OpenedPage> {
	const opens: ThreadFigures[] = [];
	for (let open = 1; ; open++) {
		const page = await WebviewPage.launch(options);
		let first: RenderReport | undefined;
		try {
			opens.push(await watchThread(`${name}-${open}`, async () => {
				await page.load(source, options);
				first = await page.waitForReport((r) => r.cause === 'snapshot', 120_000);
			}, profileDir));
			if (!first) {
				throw new Error('the page never painted');
			}
		} catch (error) {
			await page.close();
			throw error;
		}
		if (open === count) {
			return { page, first, opens };
		}
		await page.close();
	}
}

export interface WatchedStep {
	readonly report: RenderReport | undefined;
	readonly roundTripMs: number;
	readonly thread: ThreadFigures;
}

/** Types 4 into the what-if's keep-last field; done when the page paints the what-if's snapshot. */
export function whatIfStep(page: WebviewPage, profileDir?: string): Promise<WatchedStep> {
	return watchedStep('what-if', page, (r) => r.cause === 'snapshot' && r.whatIfChanges > 0,
		() => page.page.locator('vscode-textfield[data-control="whatif-keep"] input').fill('4'), profileDir);
}

/** Clicks the raw view; done when the page paints it. */
export function rawViewStep(page: WebviewPage, profileDir?: string): Promise<WatchedStep> {
	return watchedStep('raw-view', page, (r) => r.cause === 'view' && r.view === 'before',
		() => page.page.click('vscode-button[data-control="view-before"]'), profileDir);
}

async function watchedStep(name: string, page: WebviewPage, done: (report: RenderReport) => boolean, act: () => Promise<void>, profileDir?: string): Promise<WatchedStep> {
	const start = performance.now();
	let report: RenderReport | undefined;
	const thread = await watchThread(name, async () => {
		const painted = page.nextReport(done, 60_000);
		await act();
		report = await painted;
	}, profileDir);
	return { report, roundTripMs: performance.now() - start, thread };
}

/** The longest block of the host's thread, the longest counting only its time on a core, the collector's longest pause. */
export function blockText(figures: ThreadFigures): string {
	const gc = figures.longestGc ? `${ms(figures.longestGc.ms)} (${figures.longestGc.kind})` : 'none';
	return `longest host block ${ms(figures.longestDelayMs)}, on a core ${ms(figures.longestOnCpuMs)}; longest GC pause ${gc}`;
}

/** The median open's figures (by longest block), then each open's longest block. */
export function opensText(opens: readonly ThreadFigures[]): string {
	const sorted = [...opens].sort((a, b) => a.longestDelayMs - b.longestDelayMs);
	const middle = sorted[Math.floor(sorted.length / 2)];
	if (!middle || opens.length === 1) {
		return middle ? blockText(middle) : 'no open';
	}
	const each = opens.map((f) => `${ms(f.longestDelayMs)} (on a core ${ms(f.longestOnCpuMs)}, GC ${ms(f.longestGc?.ms ?? 0)})`).join(', ');
	return `median of ${opens.length} opens: ${blockText(middle)}; each open's longest block ${each}`;
}

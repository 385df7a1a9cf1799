/**
 * The Costs panel on the 100 MB realistic sessions (one plain, one pruned by real pi-condense 2.9.1),
 * in real Chromium with the real bundle, fed by the host's protocol logic (PageHost, PageCosts): the
 * session loaded as the store keeps it (its costs ledger built), the page opened, then the Costs
 * button clicked. Prints the panel's first paint (the page's render of the overview after it arrives,
 * target ≤ 200 ms, and the round trip from the click), the size of that message, the time until every
 * prune is accounted, and the host's longest block in each (target ≤ 50 ms; Chromium kept off the
 * first CPU where the machine can). Nothing asserts.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { RenderReport } from '../../src/shared/protocol';
import { cpusBesideTheFirst } from '../support/cpuPinning';
import { watchThread } from '../support/hostThreadWatch';
import { LATEST } from '../support/releases';
import { SessionFileSource } from '../support/sessionFileSource';
import { WebviewPage, type PageOptions } from '../support/webviewPage';
import { blockText } from './pageSteps';
import { realisticSessions } from './realisticSessions';
import { mb, ms } from './timing';

const BROWSER_CPUS = cpusBesideTheFirst();
const OPTIONS: PageOptions = { viewport: { width: 1400, height: 900 }, ...(BROWSER_CPUS === undefined ? {} : { browserCpus: BROWSER_CPUS }) };

export async function benchCostsPanel(megabytes: number): Promise<void> {
	console.log(`\n## Costs panel: ${megabytes} MB realistic sessions (${BROWSER_CPUS === undefined ? 'Chromium on every CPU' : `Chromium on CPU ${BROWSER_CPUS}, the host free`})`);
	const agentDir = mkdtempSync(join(tmpdir(), 'pi-condense-costs-bench-'));
	try {
		for (const session of realisticSessions(megabytes)) {
			await benchOne(session.label, session.file, agentDir);
		}
	} finally {
		rmSync(agentDir, { recursive: true, force: true });
	}
}

async function benchOne(label: string, file: string, agentDir: string): Promise<void> {
	// As the store holds an open session: parsed, its costs ledger kept (the store's open, timed by the steps bench).
	const source = new SessionFileSource(file, agentDir, LATEST);
	await source.reload();
	// The size of each Costs message as JSON (VS Code serializes what it posts).
	const costsBytes: number[] = [];
	const page = await WebviewPage.open(source, { ...OPTIONS, hold: (message) => {
		if (message.type === 'costs') {
			costsBytes.push(JSON.stringify(message).length);
		}
		return Promise.resolve();
	} });
	try {
		await page.waitForReport((r) => r.cause === 'snapshot', 300_000);
		let first: RenderReport | undefined;
		let accounted: RenderReport | undefined;
		const clicked = performance.now();
		let firstAt = 0;
		const firstThread = await watchThread('costs-first-paint', async () => {
			const painted = page.nextReport((r) => r.cause === 'costs', 120_000);
			await page.page.click('vscode-button[data-control="costs"]');
			first = await painted;
			firstAt = performance.now();
		});
		const accountsThread = await watchThread('costs-accounts', async () => {
			accounted = (first?.values['costs.prunes'] ?? -1) >= 0 ? first : await page.waitForReport((r) => r.cause === 'costs' && (r.values['costs.prunes'] ?? -1) >= 0, 600_000);
		});
		console.log(`${label} (${mb(statSync(file).size)}): ${String(first?.values['costs.requests'] ?? 0)} requests`);
		console.log(`  first paint after the data arrives ${ms(first?.renderMs ?? 0)} (target ≤ 200 ms); click to painted ${ms(firstAt - clicked)}; ${String(first?.domNodes ?? 0)} DOM nodes; message ${mb(costsBytes[0] ?? 0)}; host: ${blockText(firstThread)} (target ≤ 50 ms)`);
		console.log(`  every prune accounted (${String(accounted?.values['costs.prunes'] ?? 0)}) ${ms(performance.now() - clicked)} after the click, painted in ${ms(accounted?.renderMs ?? 0)}; host: ${blockText(accountsThread)} (target ≤ 50 ms)`);
	} finally {
		await page.close();
	}
}

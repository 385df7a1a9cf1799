/**
 * `npm run bench`: prints speed and memory figures, as ratios measured in one run (a noisy machine
 * makes absolute times meaningless; nothing here asserts).
 */
import { largestRealSession, syntheticSessionFile } from './benchFiles';
import { benchCostsPanel } from './costsPanelBench';
import { benchFlush } from './flushBench';
import { benchHistoryIndex } from './historyBench';
import { benchSessionOpen } from './openBench';
import { benchPreview } from './previewBench';
import { benchRender } from './renderBench';
import { benchSteps } from './stepBench';
import { benchStoreStart } from './storeStartBench';

async function main(): Promise<void> {
	const megabytes = Number(process.env['PI_CONDENSE_BENCH_MB'] ?? '100');
	console.log(`# Pi Condense benchmark (node ${process.version}; synthetic session ${megabytes} MB)`);
	if (process.env['PI_CONDENSE_BENCH_ONLY'] === 'history') {
		benchHistoryIndex();
		return;
	}
	if (process.env['PI_CONDENSE_BENCH_ONLY'] === 'steps') {
		benchSteps(megabytes);
		return;
	}
	// The Costs panel's steps alone (open, the ledger's pass, first paint, every prune's account).
	if (process.env['PI_CONDENSE_BENCH_ONLY'] === 'costs') {
		benchSteps(megabytes, 'costs');
		return;
	}
	// The Costs panel in the page on the realistic sessions: first paint, every prune accounted, host blocks.
	if (process.env['PI_CONDENSE_BENCH_ONLY'] === 'costspanel') {
		await benchCostsPanel(megabytes);
		return;
	}
	// One part alone, to compare two checkouts side by side.
	if (process.env['PI_CONDENSE_BENCH_ONLY'] === 'preview') {
		await benchPreview();
		return;
	}
	const synthetic = await syntheticSessionFile(megabytes);
	if (process.env['PI_CONDENSE_BENCH_ONLY'] === 'openrender') {
		await benchSessionOpen(synthetic, 3);
		await benchRender(synthetic, 3);
		return;
	}
	await benchSessionOpen(synthetic, 3);
	await benchSessionOpen(largestRealSession(), 10);
	await benchRender(synthetic, 3);
	await benchFlush();
	await benchStoreStart(largestRealSession(), Number(process.env['PI_CONDENSE_BENCH_SESSIONS'] ?? '200'));
	await benchPreview();
	await benchCostsPanel(megabytes);
	benchSteps(megabytes);
	benchHistoryIndex();
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

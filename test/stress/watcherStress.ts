/**
 * The full watcher load: 2,000 session files, one growing by 100 lines a second for a minute,
 * twenty others written now and then; RSS and heap printed before and after.
 */
import { runWatcherLoad } from '../support/watcherLoad';
import { stressSeed, type StressArgs, type StressResult } from './stressArgs';

/** Heap growth beyond this (the growing session's own model aside) counts as unbounded. */
const MAX_HEAP_GROWTH_MB = 150;

export async function watcherStress(args: StressArgs): Promise<StressResult> {
	const durationMs = (args.count ?? 60) * 1000;
	const result = await runWatcherLoad({ files: 2000, durationMs, linesPerSecond: 100, otherWriters: 20, seed: stressSeed('watcher', args) });
	for (const mismatch of result.mismatches.slice(0, 20)) {
		console.log(`  MISMATCH ${mismatch}`);
	}
	const heapGrowth = result.heapAfterMb - result.heapBeforeMb;
	const bounded = heapGrowth < MAX_HEAP_GROWTH_MB + result.growingFileMb * 3;
	const mb = (n: number): string => `${n.toFixed(0)} MB`;
	return {
		line: `watcher: 2000 files, ${durationMs / 1000} s at 100 lines/s: ${result.linesWritten} lines (${result.growingFileMb.toFixed(1)} MB) written, ${result.events} events, `
			+ `${result.bytesReported}/${result.bytesWritten} bytes reported, ${result.mismatches.length} mismatch(es); `
			+ `RSS ${mb(result.rssBeforeMb)} before, ${mb(result.rssReadyMb)} watching, ${mb(result.rssPeakMb)} peak, ${mb(result.rssAfterMb)} after; heap ${mb(result.heapBeforeMb)} -> ${mb(result.heapAfterMb)}${bounded ? '' : ' (UNBOUNDED)'}`,
		failed: result.mismatches.length > 0 || !bounded,
	};
}

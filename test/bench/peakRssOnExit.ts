/**
 * Preloaded (`node -r`) into a process the benchmark measures from outside, such as the CLI: on
 * exit it prints the process's peak resident memory and its CPU time (every thread's) on stderr,
 * each on a line of its own.
 */
import { CPU_MS_PREFIX, PEAK_RSS_PREFIX } from './peakRssLine';

process.on('exit', () => {
	const usage = process.resourceUsage();
	process.stderr.write(`\n${PEAK_RSS_PREFIX}${String(usage.maxRSS * 1024)}\n${CPU_MS_PREFIX}${String((usage.userCPUTime + usage.systemCPUTime) / 1000)}\n`);
});

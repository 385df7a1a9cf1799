/**
 * Preloaded (`node -r`) into a process the benchmark measures from outside, such as the CLI: on
 * exit it prints the process's peak resident memory on stderr, on a line of its own.
 */
import { PEAK_RSS_PREFIX } from './peakRssLine';

process.on('exit', () => {
	process.stderr.write(`\n${PEAK_RSS_PREFIX}${String(process.resourceUsage().maxRSS * 1024)}\n`);
});

/** How peakRssOnExit marks its line on stderr, for the benchmark to find it. */
export const PEAK_RSS_PREFIX = 'bench-peak-rss-bytes ';

/** How peakRssOnExit marks its line of CPU time (user and system, all threads) on stderr. */
export const CPU_MS_PREFIX = 'bench-cpu-ms ';

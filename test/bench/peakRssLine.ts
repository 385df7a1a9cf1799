/** How peakRssOnExit marks its line on stderr, for the benchmark to find it. */
export const PEAK_RSS_PREFIX = 'bench-peak-rss-bytes ';

/**
 * The newest Pi whose session files Pi Condense knows. Pure data. Pi's changelog dates what it
 * reads: system messages and `usage` entries from Pi 0.86.0, `context_edit` entries and the
 * retain-none compaction from 0.87.0.
 */

/** The newest Pi whose session format and context building Pi Condense follows. */
export const NEWEST_KNOWN_PI = '1.6.0';

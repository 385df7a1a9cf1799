/**
 * The Pi releases whose session files Pi Condense knows, and when each Pi 1.x addition appeared
 * (Pi's changelog). Pure data.
 */

/** The newest Pi whose session format and context building Pi Condense follows. */
export const NEWEST_KNOWN_PI = '1.6.0';

/** The first Pi release that writes each addition to the session format. */
export const PI_ADDITIONS = {
	systemMessages: '0.86.0',
	usageEntries: '0.86.0',
	contextEdits: '0.87.0',
	retainNoneCompaction: '0.87.0',
} as const;

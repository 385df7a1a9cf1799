/**
 * Messages real Pi held differently in memory from how it wrote them, in the reference sessions. In the
 * Pi 1.6.0 sessions, the failed `write`'s result (line 47, entry 4d8fd9ea: "EISDIR: illegal operation on
 * a directory, …", 78 characters of text) was 49 characters longer in the Pi process that ran the next
 * flush: pi-condense 2.9.1 counted 127 raw characters for its batch (the frontier on line 48) and measured
 * the message 51 characters longer (the flush-metrics on lines 52 and 83). Nothing in the file says what
 * those characters were, so no reading of the file gives those figures; the tests that compare them say
 * which ones they leave out or how they pad the message, and check everything else.
 */
export interface HeldLonger {
	readonly entryId: string;
	/** How much longer the serialized message was. */
	readonly extraJsonChars: number;
	/** How much longer its text was (pi-condense's raw character count). */
	readonly extraTextChars: number;
}

export const HELD_LONGER: Readonly<Record<string, HeldLonger>> = {
	'batching-pi-1.6.0': { entryId: '4d8fd9ea', extraJsonChars: 51, extraTextChars: 49 },
	'context-edits-pi-1.6.0': { entryId: '4d8fd9ea', extraJsonChars: 51, extraTextChars: 49 },
};

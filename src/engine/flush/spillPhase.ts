/**
 * The blob-file port and settings of the flush's only spill: the 2.9.0+ chain backfill. pi-condense
 * spills eagerly at `turn_end` only (its index entry follows the tool result), never in
 * `/pruner now` or `/pruner compact`, so a flush written as the release writes it spills nothing
 * else: a large result that no eager spill took is summarized like any other. Types only.
 */

/** Writes blob files into the session's `<sessionId>-blobs/` folder. */
export interface SpillWriter {
	/** Writes `body` as `fileName` (a bare, safe name) and resolves the file's absolute path. */
	writeBlob(fileName: string, body: string): Promise<string>;
}

export interface SpillSettings {
	readonly spillThreshold: number;
	readonly spillPreviewBytes: number;
}

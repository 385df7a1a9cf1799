/**
 * Names of pi-condense's spill files inside `<sessionId>-blobs/`. Pure.
 *
 * pi-condense 2.0.0 names a blob after the tool-call id with every character outside
 * `[A-Za-z0-9_-]` replaced by `_` (2.6.0 and later use the sanitized occurrence key, e.g.
 * `bash_23_1796020564484.txt`). The `spillPath` stored in a record is an absolute path from the
 * machine that spilled it and is never opened; only its bare file name is considered, and only
 * when it is a name pi-condense could have produced.
 */
import type { ToolCallRecord } from '../types';

export function sanitizeBlobId(id: string): string {
	return id.replace(/[^A-Za-z0-9_-]/g, '_');
}

const SAFE_BLOB_NAME = /^[A-Za-z0-9_-]+\.txt$/;

/**
 * File names to try for a spilled record, most likely first: the name stored in `spillPath` (what
 * was actually written; two occurrences of a reused id have different ones), then the 2.0.0 name.
 */
export function blobFileNames(record: ToolCallRecord): string[] {
	const names: string[] = [];
	const stored = record.spillPath?.split(/[\\/]/).pop();
	if (stored !== undefined && SAFE_BLOB_NAME.test(stored)) {
		names.push(stored);
	}
	const plain = `${sanitizeBlobId(record.toolCallId)}.txt`;
	if (!names.includes(plain)) {
		names.push(plain);
	}
	return names;
}

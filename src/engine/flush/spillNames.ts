/**
 * The blob file name for a spilled result, inside `<sessionId>-blobs/`. Pure.
 *
 * pi-condense 2.6.0+ (eager spill, and the 2.9.0 backfill, the only spill a flush does) names it
 * after the occurrence key `id@resultTimestamp` with every character outside `[A-Za-z0-9_-]`
 * replaced by `_`: `bash_23@1150` → `bash_23_1150.txt`, and `../../x` can never leave the folder.
 * Without a timestamp the bare id is used, as in 2.0.0. Recovery reads the record's `spillPath`.
 */
import { occurrenceKey } from '../condense/occurrence';
import { sanitizeBlobId } from '../condense/recovery/blobFileName';

export function spillBlobName(toolCallId: string, resultTimestamp: number | undefined): string {
	return `${sanitizeBlobId(occurrenceKey(toolCallId, resultTimestamp))}.txt`;
}


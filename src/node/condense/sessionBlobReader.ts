/**
 * The `BlobReader` port on disk: pi-condense's spill files live in `<sessionId>-blobs/` next to the
 * session file. Only bare file names are accepted, so a name can never leave that folder.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BlobReader } from '../../engine/ports';

const BARE_BLOB_NAME = /^[A-Za-z0-9_-]+\.txt$/;

export function blobDirectory(sessionFile: string, sessionId: string): string {
	return join(dirname(sessionFile), `${sessionId}-blobs`);
}

export function sessionBlobReader(sessionFile: string, sessionId: string): BlobReader {
	const directory = blobDirectory(sessionFile, sessionId);
	return {
		async readBlob(fileName) {
			if (!BARE_BLOB_NAME.test(fileName)) {
				return undefined;
			}
			try {
				return await readFile(join(directory, fileName), 'utf8');
			} catch {
				return undefined;
			}
		},
	};
}

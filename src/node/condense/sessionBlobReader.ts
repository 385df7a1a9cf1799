/**
 * The `BlobReader` port on disk: pi-condense's spill files live in `<sessionId>-blobs/` next to the
 * session file, used only when that folder is safe (see `blobFolder.ts`). Only bare file names are
 * accepted, and a file is read only if it (links resolved) is inside that folder.
 */
import { readFile } from 'node:fs/promises';
import type { BlobReader } from '../../engine/ports';
import { blobFileInside, resolveBlobFolder } from './blobFolder';

const BARE_BLOB_NAME = /^[A-Za-z0-9_-]+\.txt$/;

export { blobDirectory } from './blobFolder';

/** `onRefused` hears why a read was refused (an unsafe header id or folder). */
export function sessionBlobReader(sessionFile: string, sessionId: string, onRefused?: (reason: string) => void): BlobReader {
	return {
		async readBlob(fileName) {
			if (!BARE_BLOB_NAME.test(fileName)) {
				return undefined;
			}
			const folder = await resolveBlobFolder(sessionFile, sessionId).catch(() => undefined);
			if (folder?.kind === 'refused') {
				onRefused?.(folder.reason);
			}
			const file = folder?.kind === 'ok' ? await blobFileInside(folder.directory, fileName) : undefined;
			return file === undefined ? undefined : readFile(file, 'utf8').catch(() => undefined);
		},
	};
}

/**
 * The `SpillWriter` port on disk: blob files in `<sessionDir>/<sessionId>-blobs/`, only when that
 * folder is safe (a Pi session id, and really beside the session file: see `blobFolder.ts`); a
 * refusal fails the write with the reason, and the result stays inline. Only bare
 * `[A-Za-z0-9_-]+.txt` names are accepted, so a crafted tool-call id can never leave the folder.
 * Each blob is written to a temporary file and renamed into place, so a killed process never
 * leaves a half-written blob under a real name.
 */
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { SpillWriter } from '../../engine/flush';
import { blobDirectory, resolveBlobFolder } from '../condense/blobFolder';

const BARE_BLOB_NAME = /^[A-Za-z0-9_-]+\.txt$/;

export function createBlobWriter(sessionFile: string, sessionId: string): SpillWriter {
	return {
		async writeBlob(fileName, body) {
			if (!BARE_BLOB_NAME.test(fileName)) {
				throw new Error(`refusing blob name ${JSON.stringify(fileName)}: only [A-Za-z0-9_-]+.txt names are written`);
			}
			const folder = await resolveBlobFolder(sessionFile, sessionId, { create: true });
			if (folder.kind !== 'ok') {
				throw new Error(folder.kind === 'refused' ? folder.reason : `the blobs folder of ${sessionFile} could not be created`);
			}
			// The path pi-condense would record (the folder as the session's path names it, links kept).
			const directory = resolve(blobDirectory(sessionFile, sessionId));
			const target = join(directory, fileName);
			if (dirname(target) !== directory) {
				throw new Error(`refusing blob path ${target}: outside ${directory}`);
			}
			const temporary = join(directory, `.${fileName}.${randomBytes(6).toString('hex')}.tmp`);
			try {
				await writeFile(temporary, body, 'utf8');
				await rename(temporary, target);
			} catch (error) {
				await rm(temporary, { force: true });
				throw error;
			}
			return target;
		},
	};
}

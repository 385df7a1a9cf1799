/**
 * The `SpillWriter` port on disk: blob files in `<sessionDir>/<sessionId>-blobs/`, only when that
 * folder is safe (a Pi session id, and really beside the session file: see `blobFolder.ts`); a
 * refusal fails the write with the reason, and the result stays inline. Only bare
 * `[A-Za-z0-9_-]+.txt` names are accepted, so a crafted tool-call id can never leave the folder.
 * Each blob is written to a temporary file and renamed into place, so a killed process never
 * leaves a half-written blob under a real name; the write goes into the folder the check found and
 * only while it is still that folder (`writeInside`).
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, rename, rm } from 'node:fs/promises';
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
			// Written where the check found the folder (links resolved), not through the link again,
			// and only while that folder is still the one checked.
			await writeInside(folder.directory, fileName, body);
			return target;
		},
	};
}

/**
 * Writes `body` as `directory/fileName` through a new temporary file that no link can redirect
 * (created exclusively, never following a link) and a rename, after checking that `directory` is
 * still the folder checked before (same device and inode, still a folder, not a link): a folder
 * swapped for a link to elsewhere between the check and the write gets nothing. `hooks` lets a
 * test act inside that window.
 */
export async function writeInside(directory: string, fileName: string, body: string, hooks: { readonly beforeRename?: () => Promise<void> } = {}): Promise<void> {
	const checked = await lstat(directory);
	if (!checked.isDirectory()) {
		throw new Error(`refusing to write ${fileName}: ${directory} is not a folder`);
	}
	const temporary = join(directory, `.${fileName}.${randomBytes(6).toString('hex')}.tmp`);
	const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o666);
	try {
		try {
			await handle.writeFile(body, 'utf8');
		} finally {
			await handle.close();
		}
		await hooks.beforeRename?.();
		const now = await lstat(directory);
		if (!now.isDirectory() || now.dev !== checked.dev || now.ino !== checked.ino) {
			throw new Error(`refusing to write ${fileName}: the blobs folder ${directory} was replaced while writing`);
		}
		await rename(temporary, join(directory, fileName));
	} catch (error) {
		await rm(temporary, { force: true });
		throw error;
	}
}

/**
 * The first half of an atomic file replacement: the new content written under a unique name beside
 * the file it will replace (same folder, so the rename that follows is atomic), created exclusively
 * and never through a link. The caller renames it over the target, or removes it.
 */
import { constants } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Temporary files this process made: with its id and the time, a name no other writer uses. */
let tempFiles = 0;

/**
 * Writes `data` next to `target` under a unique name and returns that name; on failure nothing is
 * left. The name needs no randomness (`O_EXCL` refuses an existing file anyway); `crypto.randomBytes`,
 * even synchronous, left a native request behind until the next collection, which a shutdown right
 * after a save reported. `mode`, when given, is set on the open file (open's mode is reduced by the
 * umask), not by path: nothing swapped in is changed.
 */
export async function writeTempBeside(target: string, data: string | Uint8Array, mode: number | undefined): Promise<string> {
	const tempPath = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now().toString(36)}.${++tempFiles}.tmp`);
	const handle = await open(tempPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), mode ?? 0o666);
	try {
		try {
			await handle.writeFile(data);
			if (mode !== undefined) {
				await handle.chmod(mode);
			}
			await handle.sync();
		} finally {
			await handle.close();
		}
	} catch (error) {
		await unlink(tempPath).catch(() => undefined);
		throw error;
	}
	return tempPath;
}

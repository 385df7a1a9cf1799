/**
 * "Set up a key…" stores an API key in Pi's `<agentDir>/auth.json` as Pi's `/login` stores one
 * (`{ "type": "api_key", "key": … }`), and takes it out again:
 *   - under Pi's own lock on the file (`authFileLock.ts`), read again under it;
 *   - never over a file that does not parse (Pi refuses it too): the error names the file and the line,
 *     never its text, and the file is left byte for byte;
 *   - every other key and login kept, the file written as Pi writes it (two-space JSON), through a
 *     temporary file renamed over it (through a symlinked auth.json to the file it names);
 *   - mode 0600 afterwards, whatever it was: the caller says when it changed.
 * The record of the write keeps the file's previous bytes and a SHA-256 of what was written. Removing
 * the key puts those bytes back while the file is exactly what was written; otherwise it removes only
 * the provider's entry, once the caller has confirmed it for the file as it is then, and only while that
 * entry is still the one written here (a `/login` since is not ours to remove).
 */
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, realpath, rename, unlink } from 'node:fs/promises';
import { errorCode } from '../fs/errors';
import { READ_WITHOUT_BLOCKING } from '../fs/openFlags';
import { writeTempBeside } from '../fs/tempFile';
import { authFilePath } from './authFile';
import { withAuthFileLock, type AuthFileLock } from './authFileLock';
import { isPlainObject } from '../../base/plainObject';
import { jsonErrorLocation } from '../settings/jsonErrorLocation';
import type { JsonObject } from './jsonFile';

/** What one key set up wrote, for its removal: no key in it, but the file's previous bytes (which may hold others). */
export interface StoredKeyRecord {
	readonly authPath: string;
	readonly provider: string;
	/** The file before, base64; null when there was none. */
	readonly previous: string | null;
	/** Whether the file before held an entry for the provider (putting the bytes back brings it back). */
	readonly replacedEntry: boolean;
	/** SHA-256 (hex) of the whole file as written. */
	readonly writtenSha256: string;
	/** SHA-256 of the provider's entry as written (its JSON), to know it is still the one set up here. */
	readonly entrySha256: string;
	/** Epoch ms. */
	readonly at: number;
}

export interface StoredKey {
	readonly record: StoredKeyRecord;
	/** The file's permission bits before, when they were not 0600 (they are now). */
	readonly modeWas: number | undefined;
}

export type KeyRemoval =
	/** The file is what it was before the key was saved, byte for byte (or gone again, if there was none). */
	| { readonly kind: 'restored'; readonly removedFile: boolean }
	/** The file changed since: only the entry can go, once the user confirms it for the file as it is now. */
	| { readonly kind: 'confirm'; readonly fileSha256: string }
	/** The entry was removed, everything else kept. */
	| { readonly kind: 'removed' }
	/** Nothing of ours is left to remove (the record can be forgotten). */
	| { readonly kind: 'gone'; readonly reason: string };

/** Why auth.json could not be used; its message names the file and, for a parse error, the line. */
export class AuthFileError extends Error {
	constructor(readonly path: string, message: string) {
		super(message);
		this.name = 'AuthFileError';
	}
}

export async function storeApiKey(agentDir: string, provider: string, key: string, now = Date.now()): Promise<StoredKey> {
	const path = authFilePath(agentDir);
	await mkdir(agentDir, { recursive: true, mode: 0o700 });
	const created = await createEmpty(path);
	return withAuthFileLock(path, async (lock) => {
		const before = await readAuthFile(path);
		const entries = parseAuth(path, before.bytes);
		const entry = { type: 'api_key', key };
		const written = Buffer.from(JSON.stringify({ ...entries, [provider]: entry }, null, 2), 'utf8');
		await replaceFile(path, written, lock);
		const unchangedSinceCreated = created && before.bytes.equals(EMPTY);
		const modeWas = before.mode & 0o777;
		return {
			record: {
				authPath: path, provider, previous: unchangedSinceCreated ? null : before.bytes.toString('base64'),
				replacedEntry: Object.hasOwn(entries, provider), writtenSha256: sha256(written), entrySha256: sha256(JSON.stringify(entry)), at: now,
			},
			modeWas: unchangedSinceCreated || modeWas === 0o600 ? undefined : modeWas,
		};
	});
}

/**
 * Takes the key of `record` out of auth.json (see the file's comment). `confirmedSha256`: the file the
 * user confirmed removing the entry from (the `fileSha256` of a `confirm` answer).
 */
export async function removeStoredKey(record: StoredKeyRecord, confirmedSha256?: string): Promise<KeyRemoval> {
	const path = record.authPath;
	try {
		await realpath(path);
	} catch (error) {
		if (errorCode(error) === 'ENOENT') {
			return { kind: 'gone', reason: `${path} is not there any more` };
		}
		throw error;
	}
	return withAuthFileLock(path, async (lock) => {
		const { bytes } = await readAuthFile(path);
		const fileSha256 = sha256(bytes);
		if (fileSha256 === record.writtenSha256) {
			if (record.previous === null) {
				await unlink(await realpath(path));
				return { kind: 'restored', removedFile: true };
			}
			await replaceFile(path, Buffer.from(record.previous, 'base64'), lock);
			return { kind: 'restored', removedFile: false };
		}
		const entries = parseAuth(path, bytes);
		if (!Object.hasOwn(entries, record.provider)) {
			return { kind: 'gone', reason: `${path} holds no key for "${record.provider}" any more` };
		}
		if (sha256(JSON.stringify(entries[record.provider])) !== record.entrySha256) {
			return { kind: 'gone', reason: `the entry for "${record.provider}" in ${path} changed since Pi Condense saved it (a /login in Pi?), so it is not Pi Condense's to remove; Pi's /logout removes it` };
		}
		if (confirmedSha256 !== fileSha256) {
			return { kind: 'confirm', fileSha256 };
		}
		const rest = Object.fromEntries(Object.entries(entries).filter(([provider]) => provider !== record.provider));
		await replaceFile(path, Buffer.from(JSON.stringify(rest, null, 2), 'utf8'), lock);
		return { kind: 'removed' };
	});
}

const EMPTY = Buffer.from('{}');

export function sha256(data: string | Uint8Array): string {
	return createHash('sha256').update(data).digest('hex');
}

/** Pi's lock needs the file to exist: an empty one is made (0600), never replacing one that appears meanwhile. */
async function createEmpty(path: string): Promise<boolean> {
	try {
		const handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
		try {
			await handle.writeFile(EMPTY);
		} finally {
			await handle.close();
		}
		return true;
	} catch (error) {
		if (errorCode(error) === 'EEXIST') {
			return false;
		}
		throw new AuthFileError(path, `${path} could not be created: ${error instanceof Error ? error.message : String(error)}`);
	}
}

/** The file's bytes and mode; only a regular file is read (a FIFO would hold the read for ever). */
async function readAuthFile(path: string): Promise<{ readonly bytes: Buffer; readonly mode: number }> {
	const handle = await open(path, READ_WITHOUT_BLOCKING);
	try {
		const stats = await handle.stat();
		if (!stats.isFile()) {
			throw new AuthFileError(path, `${path} is not a regular file: Pi Condense did not change it`);
		}
		return { bytes: await handle.readFile(), mode: stats.mode };
	} finally {
		await handle.close();
	}
}

/** The entries, as Pi reads them (a byte-order mark allowed); a file that does not parse is refused, saying where. */
function parseAuth(path: string, bytes: Buffer): JsonObject {
	const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
	const refused = (what: string): AuthFileError => new AuthFileError(path, `${path} ${what}, so Pi Condense did not change it (Pi refuses it too). Fix it, then try again.`);
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		// Where, never what: V8's message quotes the text around the error, and this file holds keys.
		const at = jsonErrorLocation(text);
		throw refused(`is not valid JSON${at === undefined ? '' : ` at line ${at.line}, column ${at.column}`}`);
	}
	if (!isPlainObject(value)) {
		throw refused('does not hold a JSON object');
	}
	return value;
}

/** Replaces the file (the one a symlinked auth.json names) with `bytes`, mode 0600, unless the lock was lost. */
async function replaceFile(path: string, bytes: Uint8Array, lock: AuthFileLock): Promise<void> {
	const target = await realpath(path);
	const temp = await writeTempBeside(target, bytes, 0o600);
	try {
		const lost = lock.compromised();
		if (lost) {
			throw new AuthFileError(path, `Lost Pi's lock on ${path} while writing it (${lost.message}); nothing was changed. Try again.`);
		}
		await rename(temp, target);
	} catch (error) {
		await unlink(temp).catch(() => undefined);
		throw error;
	}
}

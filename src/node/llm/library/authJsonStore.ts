/**
 * Pi's `<agentDir>/auth.json` as the credential store of pi-ai 0.8x and later (`createModels({ credentials })`):
 * one credential per provider, the file read again for every request. pi-ai refreshes an expiring OAuth token
 * inside `modify`, which holds Pi's own lock on the file (`authFileLock.ts`), reads the file again under it and
 * writes the whole file back as Pi does (two-space JSON, mode 0600 when created), never over a file that does not
 * parse. So a token Pi refreshed meanwhile is used and not refreshed twice, and a token
 * refreshed here is the one Pi reads next: refresh tokens rotate, and both sides see one file.
 * An API key is resolved as Pi resolves it (`configTemplate.ts`). In `probe` mode (listing models, prices)
 * nothing is written and no `!command` runs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { errorCode } from '../../fs/errors';
import { authFilePath } from '../authFile';
import { withAuthFileLock } from '../authFileLock';
import { parseJsonObjectText, type JsonObject } from '../jsonFile';
import { resolveTemplateValue, type TemplateResolution } from './configTemplate';
import { isPlainObject } from '../../../base/plainObject';

/** What a credential store hands pi-ai: Pi's auth.json entry shapes. */
export type StoredCredential =
	| { readonly type: 'api_key'; readonly key?: string; readonly env?: Readonly<Record<string, string>> }
	| { readonly type: 'oauth'; readonly access: string; readonly refresh: string; readonly expires: number; readonly [field: string]: unknown };

export interface AuthJsonStoreOptions {
	readonly agentDir: string;
	/** `request` may run `!command` keys and write refreshed OAuth tokens; `probe` does neither. */
	readonly mode: 'request' | 'probe';
	readonly resolution?: TemplateResolution;
}

export interface AuthJsonStore {
	read(providerId: string): Promise<StoredCredential | undefined>;
	list(): Promise<readonly { readonly providerId: string; readonly type: StoredCredential['type'] }[]>;
	modify(providerId: string, change: (current: StoredCredential | undefined) => Promise<StoredCredential | undefined>): Promise<StoredCredential | undefined>;
	delete(providerId: string): Promise<void>;
	/** An API key as written in the file (a literal, `$NAME`, `!command`), unresolved. */
	writtenKey(providerId: string): Promise<string | undefined>;
	/** Set once the file was found unreadable or not a JSON object (its text is never quoted: it holds keys). */
	problem(): string | undefined;
}

export function createAuthJsonStore(options: AuthJsonStoreOptions): AuthJsonStore {
	const path = authFilePath(options.agentDir);
	let problem: string | undefined;
	const readAll = async (): Promise<JsonObject> => {
		// Pi reads auth.json with a byte-order mark too.
		const parsed = parseJsonObjectText(path, (await readText(path)).replace(/^\uFEFF/, ''));
		problem = parsed.kind === 'problem' ? parsed.problem : undefined;
		return parsed.kind === 'ok' ? parsed.value : {};
	};
	return {
		problem: () => problem,
		async read(providerId) {
			const credential = narrowCredential((await readAll())[providerId]);
			if (credential?.type !== 'api_key' || credential.key === undefined) {
				return credential;
			}
			if (options.mode === 'probe' && credential.key.startsWith('!')) {
				return credential;
			}
			const key = await resolveTemplateValue(credential.key, {
				description: `key of provider "${providerId}" in ${path}`,
				env: credential.env,
				...options.resolution,
			});
			return { ...credential, key };
		},
		async writtenKey(providerId) {
			const credential = narrowCredential((await readAll())[providerId]);
			return credential?.type === 'api_key' ? credential.key : undefined;
		},
		async list() {
			return Object.entries(await readAll()).flatMap(([providerId, entry]) => {
				const credential = narrowCredential(entry);
				return credential ? [{ providerId, type: credential.type }] : [];
			});
		},
		async modify(providerId, change) {
			if (options.mode === 'probe') {
				throw new Error(`Pi Condense only reads ${path} here`);
			}
			return withAuthFileLock(path, async () => {
				const entries = await readAll();
				// A file that does not parse is never written over (Pi refuses it too): every other login would be lost.
				if (problem !== undefined) {
					throw new Error(`${problem}: Pi Condense did not change it`);
				}
				const next = await change(narrowCredential(entries[providerId]));
				if (next === undefined) {
					return narrowCredential(entries[providerId]);
				}
				await writeFile(path, JSON.stringify({ ...entries, [providerId]: next }, null, 2), { encoding: 'utf8', mode: 0o600 });
				return next;
			});
		},
		delete() {
			return Promise.reject(new Error('Pi Condense never removes a login: use Pi\'s /logout'));
		},
	};
}

/** The file's text; a missing file is an empty object, as Pi reads it. */
async function readText(path: string): Promise<string> {
	try {
		return await readFile(path, 'utf8');
	} catch (error) {
		if (errorCode(error) === 'ENOENT') {
			return '{}';
		}
		throw error;
	}
}

function narrowCredential(entry: unknown): StoredCredential | undefined {
	if (!isPlainObject(entry)) {
		return undefined;
	}
	if (entry.type === 'api_key' && (entry.key === undefined || typeof entry.key === 'string')) {
		const env = isPlainObject(entry.env) && Object.values(entry.env).every((value) => typeof value === 'string') ? entry.env as Record<string, string> : undefined;
		return { type: 'api_key', key: entry.key, ...(env ? { env } : {}) };
	}
	if (entry.type === 'oauth' && typeof entry.access === 'string' && typeof entry.refresh === 'string' && typeof entry.expires === 'number') {
		return { ...entry, type: 'oauth', access: entry.access, refresh: entry.refresh, expires: entry.expires };
	}
	return undefined;
}

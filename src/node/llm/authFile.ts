/**
 * Reads Pi's `<agentDir>/auth.json`: credentials keyed by provider id, either
 * `{type:"api_key", key}` or `{type:"oauth", access, refresh, expires, …}` (Pi 0.73.1). Read-only:
 * this extension never refreshes or writes OAuth tokens (Pi owns that file and its lock).
 */
import { join } from 'node:path';
import { readJsonObjectFile } from './jsonFile';
import { isPlainObject } from '../../base/plainObject';

export interface ApiKeyCredential {
	readonly type: 'api_key';
	/** A `!command`, the name of an environment variable, or the key itself. */
	readonly key: string;
}

export interface OAuthCredential {
	readonly type: 'oauth';
	readonly access: string;
	readonly refresh: string;
	/** Milliseconds since the epoch. */
	readonly expires: number;
	readonly [field: string]: unknown;
}

export type StoredCredential = ApiKeyCredential | OAuthCredential;

export interface AuthFile {
	readonly credentials: ReadonlyMap<string, StoredCredential>;
	/** Set when the file exists but could not be used. */
	readonly problem?: string;
}

const EMPTY_AUTH_FILE: AuthFile = { credentials: new Map() };

export function authFilePath(agentDir: string): string {
	return join(agentDir, 'auth.json');
}

export async function readAuthFile(agentDir: string): Promise<AuthFile> {
	const read = await readJsonObjectFile(authFilePath(agentDir));
	if (read.kind === 'missing') {
		return EMPTY_AUTH_FILE;
	}
	if (read.kind === 'problem') {
		return { credentials: new Map(), problem: read.problem };
	}
	const credentials = new Map<string, StoredCredential>();
	for (const [provider, entry] of Object.entries(read.value)) {
		const credential = narrowCredential(entry);
		if (credential) {
			credentials.set(provider, credential);
		}
	}
	return { credentials };
}

function narrowCredential(entry: unknown): StoredCredential | undefined {
	if (!isPlainObject(entry)) {
		return undefined;
	}
	if (entry.type === 'api_key' && typeof entry.key === 'string') {
		return { type: 'api_key', key: entry.key };
	}
	if (entry.type === 'oauth' && typeof entry.access === 'string' && typeof entry.expires === 'number') {
		const refresh = typeof entry.refresh === 'string' ? entry.refresh : '';
		return { ...entry, type: 'oauth', access: entry.access, refresh, expires: entry.expires };
	}
	return undefined;
}

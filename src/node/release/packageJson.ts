/**
 * A package folder's package.json, read for what identifies a copy of pi-condense (`name`,
 * `version`) and where Pi finds its extensions (`pi.extensions`).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorMessage } from '../../base/errorMessage';
import { errorCode } from '../fs/errors';

export type PackageJson =
	| { readonly kind: 'missing'; readonly path: string }
	| { readonly kind: 'unreadable'; readonly path: string; readonly reason: string }
	| {
		readonly kind: 'ok';
		readonly path: string;
		readonly name: unknown;
		readonly version: unknown;
		/** `pi.extensions`, when it is a non-empty list of strings. */
		readonly piExtensions: readonly string[] | undefined;
	};

export async function readPackageJson(dir: string): Promise<PackageJson> {
	const path = join(dir, 'package.json');
	let text: string;
	try {
		text = await readFile(path, 'utf8');
	} catch (error) {
		const code = errorCode(error);
		// A folder that is really a file (an entry naming index.ts) has no package.json either.
		return code === 'ENOENT' || code === 'ENOTDIR' ? { kind: 'missing', path } : { kind: 'unreadable', path, reason: errorMessage(error) };
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		return { kind: 'unreadable', path, reason: `not valid JSON (${errorMessage(error)})` };
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return { kind: 'unreadable', path, reason: 'not a JSON object' };
	}
	const record = value as Record<string, unknown>;
	const pi = typeof record.pi === 'object' && record.pi !== null ? record.pi as Record<string, unknown> : {};
	const extensions = Array.isArray(pi.extensions) ? pi.extensions.filter((item): item is string => typeof item === 'string') : [];
	return { kind: 'ok', path, name: record.name, version: record.version, piExtensions: extensions.length > 0 ? extensions : undefined };
}

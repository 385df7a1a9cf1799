/**
 * Reads a Pi settings.json and says what state it is in, keeping the exact bytes so a writer can
 * later tell whether the file changed under it. Parsing follows Pi's settings-manager: an empty
 * file counts as `{}`, anything `JSON.parse` rejects is invalid (Pi then ignores the file and
 * refuses to save it).
 */
import { open } from 'node:fs/promises';
import { errorMessage } from '../../base/errorMessage';
import { errorCode } from '../fs/errors';
import { jsonTypeName, type SettingsFileState } from '../../engine/config';
import { jsonErrorLocation, withoutQuotedText } from './jsonErrorLocation';

export interface SettingsFileSnapshot {
	readonly path: string;
	/** The bytes read; undefined when the file does not exist or could not be read. */
	readonly bytes: Buffer | undefined;
	/** Permission bits of the file (e.g. 0o644); undefined when missing. */
	readonly mode: number | undefined;
	/**
	 * Identity, size and change times (nanoseconds) when read; undefined when missing. Another
	 * writer that truncated the file and wrote the same bytes back still changes it.
	 */
	readonly stamp: string | undefined;
	/** Last modification time in ms since the epoch; undefined when missing. */
	readonly modifiedMs: number | undefined;
	readonly state: SettingsFileState;
	/** The parsed settings (`{}` for an empty file); undefined unless the state is `ok` or `empty`. */
	readonly settings: Readonly<Record<string, unknown>> | undefined;
}

export async function readSettingsFile(path: string): Promise<SettingsFileSnapshot> {
	let bytes: Buffer;
	let mode: number;
	let stamp: string;
	let modifiedMs: number;
	try {
		const handle = await open(path, 'r');
		try {
			const before = await handle.stat({ bigint: true });
			bytes = await handle.readFile();
			const after = await handle.stat({ bigint: true });
			mode = Number(after.mode) & 0o7777;
			modifiedMs = Number(after.mtimeMs);
			// A stamp that moved while reading marks the read as torn: it will not match a later check.
			stamp = `${after.ino}:${after.size}:${after.mtimeNs}:${after.ctimeNs}${before.ctimeNs === after.ctimeNs ? '' : ':torn'}`;
		} finally {
			await handle.close();
		}
	} catch (error) {
		if (errorCode(error) === 'ENOENT') {
			return { path, bytes: undefined, mode: undefined, stamp: undefined, modifiedMs: undefined, state: { kind: 'missing' }, settings: undefined };
		}
		return { path, bytes: undefined, mode: undefined, stamp: undefined, modifiedMs: undefined, state: { kind: 'unreadable', message: errorMessage(error) }, settings: undefined };
	}
	return { path, bytes, mode, stamp, modifiedMs, ...parseSettingsBytes(bytes) };
}

function parseSettingsBytes(bytes: Buffer): Pick<SettingsFileSnapshot, 'state' | 'settings'> {
	if (bytes.length === 0) {
		return { state: { kind: 'empty' }, settings: {} };
	}
	const text = bytes.toString('utf8');
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		const message = errorMessage(error);
		if (text.startsWith('\uFEFF')) {
			// V8 would quote the invisible character; say what it is and how to get rid of it.
			const bom = 'it starts with a byte-order mark (BOM), which JSON does not allow: save it as UTF-8 without BOM';
			return { state: { kind: 'invalid-json', message: bom, line: 1, column: 1 }, settings: undefined };
		}
		return { state: { kind: 'invalid-json', message: withoutQuotedText(message), ...jsonErrorLocation(text) }, settings: undefined };
	}
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return { state: { kind: 'not-object', found: jsonTypeName(value) }, settings: undefined };
	}
	return { state: { kind: 'ok' }, settings: value as Record<string, unknown> };
}

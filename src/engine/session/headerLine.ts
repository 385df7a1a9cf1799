/**
 * Reads a session header (line 1) on its own, for listing sessions without parsing whole files.
 * Pure.
 *
 * Validity follows Pi (`isValidSessionFile`): a JSON object with `type: "session"` and a string
 * `id`. The other fields are copied only when they have the right type; a missing `cwd` or
 * `timestamp` becomes `''`, as in Pi's session list.
 */
import { toHeader } from './parseEntry';
import type { SessionHeader } from './types';
import { isPlainObject } from '../../base/plainObject';

export type HeaderLineResult =
	| { readonly ok: true; readonly header: SessionHeader }
	| { readonly ok: false; readonly reason: string };

export function parseHeaderLine(line: string): HeaderLineResult {
	let value: unknown;
	try {
		value = JSON.parse(line);
	} catch {
		return { ok: false, reason: 'line 1 is not valid JSON' };
	}
	const valid = toHeader(value);
	if (valid === undefined || !isPlainObject(value)) {
		return { ok: false, reason: 'line 1 is not a session header (a JSON object with type "session" and a string id)' };
	}
	const fields = value;
	const header: SessionHeader = {
		type: 'session',
		id: valid.id,
		cwd: typeof fields.cwd === 'string' ? fields.cwd : '',
		timestamp: typeof fields.timestamp === 'string' ? fields.timestamp : '',
		...(typeof fields.version === 'number' ? { version: fields.version } : {}),
		...(typeof fields.parentSession === 'string' ? { parentSession: fields.parentSession } : {}),
	};
	return { ok: true, header };
}


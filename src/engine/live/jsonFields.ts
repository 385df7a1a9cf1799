/**
 * Field readers for JSON that crossed a process boundary (a socket, a record file): each returns the
 * value when it has the expected type and bounds, else undefined, so a parser can refuse the whole
 * message in one place. Pure.
 */
import { isPlainObject } from '../../base/plainObject';
import type { JsonObject } from '../condense/valueGuards';

export { isPlainObject, type JsonObject };

/** Longest string accepted in a field (paths, versions, ids); content travels as chunks, not fields. */
export const MAX_FIELD_CHARS = 4096;

export function stringField(object: JsonObject, key: string, maxChars = MAX_FIELD_CHARS): string | undefined {
	const value = object[key];
	return typeof value === 'string' && value.length <= maxChars ? value : undefined;
}

export function integerField(object: JsonObject, key: string, min = 0, max = Number.MAX_SAFE_INTEGER): number | undefined {
	const value = object[key];
	return typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max ? value : undefined;
}

export function numberField(object: JsonObject, key: string): number | undefined {
	const value = object[key];
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function booleanField(object: JsonObject, key: string): boolean | undefined {
	const value = object[key];
	return typeof value === 'boolean' ? value : undefined;
}

/** `JSON.parse` that returns undefined instead of throwing, and only objects. */
export function parseObject(text: string): JsonObject | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return isPlainObject(value) ? value : undefined;
	} catch {
		return undefined;
	}
}

/** A field that may be absent: `missing` when absent or null, undefined when present but malformed. */
export const MISSING = Symbol('missing');
export function optional<T>(object: JsonObject, key: string, read: (object: JsonObject, key: string) => T | undefined): T | typeof MISSING | undefined {
	return object[key] === undefined || object[key] === null ? MISSING : read(object, key);
}

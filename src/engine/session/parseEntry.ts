/**
 * Turning one parsed JSON line into a typed entry. Pure.
 *
 * Known entry types are checked field by field (see `validateMessage.ts` for messages); an entry
 * whose fields do not fit, or whose `type` Pi does not know, becomes an `OpaqueEntry`: it keeps
 * its place in the `parentId` tree, as Pi keeps it, but never reaches the context.
 */
import type { OpaqueEntry, SessionEntry, SessionHeader } from './types';
import { checkCustomMessageFields, checkMessage, isRecord, type Problem } from './validateMessage';

export type EntryResult =
	| { readonly entry: SessionEntry; readonly warning?: string }
	| { readonly entry?: undefined; readonly error: string };

/** Pi's header rule: `type: "session"` and a string `id`. */
export function toHeader(value: unknown): SessionHeader | undefined {
	if (!isRecord(value) || value['type'] !== 'session' || typeof value['id'] !== 'string') {
		return undefined;
	}
	return value as unknown as SessionHeader;
}

/**
 * Converts a parsed non-header line of a v2/v3 file (after migration) into an entry. With
 * `unusable` (a reason already reported for the line) the entry is kept only as an opaque entry.
 */
export function toEntry(parsed: unknown, unusable?: string): EntryResult {
	if (!isRecord(parsed)) {
		return { error: 'the line is valid JSON but not an object; Pi cannot use it' };
	}
	let value: Record<string, unknown> = parsed;
	const type = value['type'];
	if (typeof type !== 'string') {
		return { error: 'the entry has no string `type`' };
	}
	if (typeof value['id'] !== 'string') {
		return { error: `the ${type} entry has no string \`id\`, so nothing can chain to it` };
	}
	let warning: string | undefined;
	const parentId = value['parentId'];
	if (parentId !== null && typeof parentId !== 'string') {
		warning = `the ${type} entry has no string \`parentId\`; it is treated as a root`;
		value = { ...value, parentId: null };
	}
	if (typeof value['timestamp'] !== 'string') {
		warning = `the ${type} entry has no string \`timestamp\``;
	}
	if (unusable !== undefined) {
		return { entry: opaque(value, type, unusable) };
	}
	const problem = fieldProblem(type, value);
	if (problem === undefined) {
		return { entry: value as unknown as SessionEntry, warning };
	}
	const known = knownTypes.has(type);
	return {
		entry: opaque(value, type, known ? problem : undefined),
		warning: known ? `invalid ${type} entry (${problem}); it is kept in the tree but left out of the context` : warning,
	};
}

const knownTypes = new Set([
	'message', 'model_change', 'thinking_level_change', 'compaction', 'branch_summary',
	'custom', 'custom_message', 'label', 'session_info',
]);

function fieldProblem(type: string, value: Record<string, unknown>): Problem {
	switch (type) {
		case 'message':
			return checkMessage(value['message']);
		case 'model_change':
			return strings(value, 'provider', 'modelId');
		case 'thinking_level_change':
			return strings(value, 'thinkingLevel');
		case 'compaction':
			// A v1 compaction whose kept entry could not be mapped has no firstKeptEntryId; Pi keeps it.
			return strings(value, 'summary') ?? optionalString(value, 'firstKeptEntryId');
		case 'branch_summary':
			return strings(value, 'summary', 'fromId');
		case 'custom':
			return strings(value, 'customType');
		case 'custom_message':
			return checkCustomMessageFields(value, 'custom_message');
		case 'label':
			return strings(value, 'targetId') ?? optionalString(value, 'label');
		case 'session_info':
			return optionalString(value, 'name');
		default:
			return 'unknown entry type';
	}
}

function strings(value: Record<string, unknown>, ...keys: string[]): Problem {
	const missing = keys.find((key) => typeof value[key] !== 'string');
	return missing === undefined ? undefined : `\`${missing}\` is not a string`;
}

function optionalString(value: Record<string, unknown>, key: string): Problem {
	const field = value[key];
	return field === undefined || typeof field === 'string' ? undefined : `\`${key}\` is not a string`;
}

function opaque(value: Record<string, unknown>, originalType: string, invalid: string | undefined): OpaqueEntry {
	const entry: OpaqueEntry = {
		type: 'opaque',
		originalType,
		id: value['id'] as string,
		parentId: value['parentId'] as string | null,
		timestamp: typeof value['timestamp'] === 'string' ? value['timestamp'] : '',
	};
	return invalid === undefined ? entry : { ...entry, invalid };
}

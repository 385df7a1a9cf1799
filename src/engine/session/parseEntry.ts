/**
 * Turning one parsed JSON line into a typed entry. Pure.
 *
 * Known entry types (Pi 1.6.0's) are checked field by field (see `validateMessage.ts` for messages);
 * an entry whose fields do not fit, or whose `type` Pi does not know, becomes an `OpaqueEntry`: it
 * keeps its place in the `parentId` tree, as Pi keeps it, but never reaches the context. An unknown
 * type or message role is what a newer Pi writes: the result names it (`newer`) so the reader can say
 * so once per kind.
 */
import { NEWEST_KNOWN_PI } from './piVersions';
import type { KnownEntry, OpaqueEntry, SessionEntry, SessionHeader } from './types';
import { checkCustomMessageFields, checkMessage, checkReplacement, checkSystemMessage, isUnknownRole, type Problem } from './validateMessage';
import { isPlainObject } from '../../base/plainObject';

/** Something a Pi newer than the one we know wrote: its kind (`type:x`, `role:x`) and what to say about it. */
export interface NewerThing {
	readonly kind: string;
	readonly message: string;
	/** It cannot change what is sent: the file may still be written to. */
	readonly writeSafe: boolean;
}

export type EntryResult =
	| { readonly entry: SessionEntry; readonly warning?: string; readonly newer?: NewerThing }
	| { readonly entry?: undefined; readonly error: string };

/** Pi's header rule: `type: "session"` and a string `id`. */
export function toHeader(value: unknown): SessionHeader | undefined {
	if (!isPlainObject(value) || value['type'] !== 'session' || typeof value['id'] !== 'string') {
		return undefined;
	}
	return value as unknown as SessionHeader;
}

/**
 * Converts a parsed non-header line of a v2/v3 file (after migration) into an entry. With
 * `unusable` (a reason already reported for the line) the entry is kept only as an opaque entry.
 */
export function toEntry(parsed: unknown, unusable?: string): EntryResult {
	if (!isPlainObject(parsed)) {
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
	if (!isKnownType(type)) {
		return { entry: opaque(value, type, undefined), warning, newer: newerType(type) };
	}
	if (type === 'message' && isUnknownRole(value['message'])) {
		const role = (value['message'] as Record<string, unknown>)['role'] as string;
		return { entry: opaque(value, type, problem), warning, newer: newerRole(role) };
	}
	return {
		entry: opaque(value, type, problem),
		warning: `invalid ${type} entry (${problem}); it is kept in the tree but left out of the context`,
	};
}

/** A name a file gave, cut for messages (a hostile file may give a megabyte). */
function shortName(name: string): string {
	return name.length > 60 ? `${name.slice(0, 60)}…` : name;
}

/** Pi leaves an entry type it does not know out of the context, and pi-condense never reads one. */
function newerType(type: string): NewerThing {
	return {
		kind: `type:${shortName(type)}`,
		message: `entry type ${JSON.stringify(shortName(type))} is unknown to Pi ${NEWEST_KNOWN_PI}, the newest Pi that Pi Condense knows: this session was written by a newer Pi. Such entries stay in the tree and out of the context, as Pi ${NEWEST_KNOWN_PI} leaves them out; if the newer Pi sends something for them, the preview cannot show it`,
		writeSafe: true,
	};
}

/** A message of an unknown role is part of the conversation pi-condense sees: what it does with one is unknown. */
function newerRole(role: string): NewerThing {
	return {
		kind: `role:${shortName(role)}`,
		message: `message role ${JSON.stringify(shortName(role))} is unknown to Pi ${NEWEST_KNOWN_PI}, the newest Pi that Pi Condense knows: this session was written by a newer Pi (it needs a Pi after ${NEWEST_KNOWN_PI}). Such messages are left out of the preview, although that Pi may send them; nothing is written to this session until Pi Condense knows them`,
		writeSafe: false,
	};
}

/**
 * The check of each entry type Pi knows (Pi 1.6.0's): the fields it must have to take part, as Pi
 * reads them. A type added to `KnownEntry` does not compile until it has its check here, and only the
 * types here are known: any other type is what a newer Pi writes.
 */
const ENTRY_CHECKS: { readonly [Type in KnownEntry['type']]: (value: Record<string, unknown>) => Problem } = {
	message: (value) => checkMessage(value['message']),
	model_change: (value) => strings(value, 'provider', 'modelId'),
	thinking_level_change: (value) => strings(value, 'thinkingLevel'),
	// A v1 compaction whose kept entry could not be mapped has no firstKeptEntryId; Pi keeps it.
	compaction: (value) => strings(value, 'summary') ?? optionalString(value, 'firstKeptEntryId') ?? checkpointProblem(value['systemMessage']),
	context_edit: (value) => strings(value, 'targetId') ?? checkReplacement(value['replacement']),
	usage: (value) => strings(value, 'kind') ?? (isPlainObject(value['usage']) ? undefined : '`usage` is not an object'),
	branch_summary: (value) => strings(value, 'summary', 'fromId'),
	custom: (value) => strings(value, 'customType'),
	custom_message: (value) => checkCustomMessageFields(value, 'custom_message'),
	label: (value) => strings(value, 'targetId') ?? optionalString(value, 'label'),
	session_info: (value) => optionalString(value, 'name'),
};

const knownTypes: ReadonlySet<string> = new Set(Object.keys(ENTRY_CHECKS));

function isKnownType(type: string): type is KnownEntry['type'] {
	return knownTypes.has(type);
}

function fieldProblem(type: string, value: Record<string, unknown>): Problem {
	return isKnownType(type) ? ENTRY_CHECKS[type](value) : 'unknown entry type';
}

/** A compaction's Pi 1.x checkpoint: absent, or a system message. */
function checkpointProblem(checkpoint: unknown): Problem {
	if (checkpoint === undefined) {
		return undefined;
	}
	if (!isPlainObject(checkpoint) || checkpoint['role'] !== 'system') {
		return '`systemMessage` is not a system message';
	}
	const problem = checkSystemMessage(checkpoint);
	return problem === undefined ? undefined : `\`systemMessage\`: ${problem}`;
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
